-- wrk script for bench/processes/load.mjs: method, headers and body come from the environment (wrk passes
-- no options to scripts but its trailing arguments), the paths to go round from a file, and the
-- result is printed as one JSON line so that load.mjs reads it as it reads autocannon's.
local method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
local headers = {}
for name, value in string.gmatch(os.getenv("WRK_HEADERS") or "", "([^\n:]+): ([^\n]*)") do
  headers[name] = value
end

local paths = {}
local pathsFile = os.getenv("WRK_PATHS_FILE")
if pathsFile and pathsFile ~= "" then
  for line in io.lines(pathsFile) do
    if line ~= "" then paths[#paths + 1] = line end
  end
end

-- One pre-built request when every request is the same; otherwise one per path, built once.
local built = {}
local counter = 0

function init(args)
  if #paths == 0 then
    built[1] = wrk.format(method, nil, headers, body)
  else
    for i, path in ipairs(paths) do
      built[i] = wrk.format(method, path, headers, body)
    end
  end
  -- Each thread starts at a different place in the round, as autocannon's connections do.
  counter = math.random(#built) - 1
end

function request()
  counter = counter + 1
  return built[(counter % #built) + 1]
end

function done(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"rps":%.1f,"p50Ms":%.3f,"p99Ms":%.3f,"errors":%d,"requests":%d}\n',
    summary.requests / seconds,
    latency:percentile(50) / 1000,
    latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.status + e.timeout,
    summary.requests))
end

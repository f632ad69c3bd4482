// The statistics of a run: medians over interleaved rounds and quantiles of latencies. Pure.

/** The middle value (the upper one of an even count); undefined for none. */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The q-quantile (0..1) by the nearest-rank rule on the sorted values; undefined for none. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** `n` rounded to `digits` decimals. */
export function round(n, digits = 1) {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}

/**
 * One scenario's rounds at maximum throughput, as one figure: the median of each measure, so
 * that one rare stall (a full GC, a slow fsync) in one window does not decide it and a recurring
 * one still does; errors are summed over the rounds.
 */
export function summariseMaximum(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** One scenario's rounds at a fixed rate: medians, each round's p99 and CPU steal, errors summed. */
export function summariseFixedRate(runs) {
  return {
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    p99MsEachRound: runs.map((r) => r.p99Ms),
    stealPercentEachRound: runs.map((r) => r.stealPercent),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * A scenario's throughput against a baseline measured right before and right after it (their
 * mean): a drift of the host's speed during the three measurements counts on both sides.
 */
export function pairedRatio(rps, before, after) {
  return rps / ((before + after) / 2);
}

/**
 * Each scenario's recorded line: its maximum, its ratios to the baselines of the same run,
 * and its fixed-rate figures at half that maximum when it has them. `rawPgRatios` holds each
 * endpoint's paired ratios to (b), one a round (pairedRatio); its ratio to (b) is their median,
 * and without them the ratio of the medians, as for (a) and (c). `rawWriteRatios` holds each
 * write's paired ratios to (b-w) the same way.
 */
export function scenarioLines(scenarios, maximum, half, baselines, rawPgRatios = {}, rawWriteRatios = {}) {
  const a = maximum[baselines.bare].rps;
  const b = maximum[baselines.rawPg].rps;
  const c = maximum[baselines.floor]?.rps;
  return scenarios.map((s) => {
    const max = maximum[s.name];
    return {
      name: s.name,
      rps: Math.round(max.rps),
      p50Ms: max.p50Ms,
      p99Ms: max.p99Ms,
      errors: max.errors,
      ratioToBareNest: round(max.rps / a, 2),
      ratioToRawPg: round(rawPgRatios[s.name] ? median(rawPgRatios[s.name]) : max.rps / b, 2),
      ...(rawPgRatios[s.name] && { ratioToRawPgEachRound: rawPgRatios[s.name].map((ratio) => round(ratio, 2)) }),
      ...(c && { ratioToFloor: round(max.rps / c, 2) }),
      ...(rawWriteRatios[s.name] && { ratioToRawWrite: round(median(rawWriteRatios[s.name]), 2), ratioToRawWriteEachRound: rawWriteRatios[s.name].map((ratio) => round(ratio, 2)) }),
      ...(half[s.name] && { halfLoad: { rps: Math.floor(max.rps / 2), ...half[s.name] } }),
    };
  });
}

/** The webhook latency run: from each page's 201 to its event's arrival (missing ones count as `end`). */
export function arrivalLatencies(answered, arrivals, end) {
  const fromAnswer = Object.entries(answered).map(([id, answeredAt]) => (arrivals[id] ?? end) - answeredAt);
  const missing = Object.keys(answered).filter((id) => arrivals[id] === undefined).length;
  return { p50Ms: quantile(fromAnswer, 0.5), p99Ms: quantile(fromAnswer, 0.99), count: fromAnswer.length, missing };
}

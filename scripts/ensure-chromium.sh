#!/usr/bin/env bash
# The Swagger UI test (test/browser) drives Debian's Chromium. On a machine without it, install it
# from Debian's packages, as PostgreSQL and Redis are started when they do not answer: `npm test`
# works on a new machine, and .ci/run calls this too. CHROMIUM_PATH names another browser instead.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ -n "${CHROMIUM_PATH:-}" ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "test: no Chromium at $browser; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "test: installing Chromium from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends chromium >/dev/null \
  || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium >/dev/null; }

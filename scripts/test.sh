#!/usr/bin/env bash
# `npm test`: the whole suite. Tests that measure time on the machine (files named *.alone.test.ts:
# the storm test's "another tenant within a second") run after the others, one at a time, with
# nothing else of the suite running beside them: among two parallel workers their figures were
# those of whichever heavy suite shared the cores (2.07 s once beside the 50,000-delivery fan-out).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
npm run -s build
npm run -s depcheck
npm run -s typecheck
jest=(node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js)
"${jest[@]}" --testPathIgnorePatterns '\.alone\.test\.ts$' "$@"
"${jest[@]}" --runInBand --testPathPatterns '\.alone\.test\.ts$'

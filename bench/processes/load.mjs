// One measurement as its own process (pinned to core 1 by bench/lib/measure.mjs under --pin):
// reads one scenario as JSON from argv and prints its result as JSON. A rate (`overallRate`)
// means open loop, else closed loop (bench/lib/generators.mjs).
import { runOpenLoop, runWrk } from '../lib/generators.mjs';

const spec = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(spec.overallRate ? runOpenLoop(spec) : runWrk(spec)));

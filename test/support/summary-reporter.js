// Ends the run with the plain summary line CI reads ("jest: N passed, N failed"), after the ten
// slowest tests: what a busy machine stretches first, and where a deadline would be tight.
class SummaryReporter {
  constructor() {
    this.tests = [];
  }

  onTestResult(_test, result) {
    const file = result.testFilePath.replace(/^.*?\/test\//, 'test/');
    for (const t of result.testResults) this.tests.push({ name: `${file} › ${t.fullName}`.replace(/\s+/g, ' '), ms: t.duration ?? 0 });
  }

  onRunComplete(_contexts, results) {
    const slowest = [...this.tests].sort((a, b) => b.ms - a.ms).slice(0, 10);
    process.stdout.write(`slowest tests:\n${slowest.map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(5)} s  ${t.name}`).join('\n')}\n`);
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed\n`);
  }
}
module.exports = SummaryReporter;

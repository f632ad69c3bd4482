// Ends the run with the plain summary line CI reads: "jest: N passed, N failed".
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed\n`);
  }
}
module.exports = SummaryReporter;

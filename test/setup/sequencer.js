// jest testSequencer: the order in which the two workers take the suites. Jest's own order runs the
// suites it has timings for longest first, and before them those it has none for, largest file
// first. A fresh checkout has no timings, and file size says little here: the suites that run the
// real Pulumi CLI or npm take minutes whatever their length, and one of them taken last kept one
// worker busy for minutes after the other had finished. So, among the suites without timings, those
// that drive the CLI (they name pulumi-cli) or npm go first, after any that failed last time, then
// the rest as jest orders them.
const fs = require("node:fs");
const Sequencer = require("@jest/test-sequencer").default;

const SLOW = /pulumi-cli|"npm"/;

class CliFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const failed = sorted.filter((t) => this.hasFailed(t));
    const rest = sorted.filter((t) => !this.hasFailed(t));
    const slow = (t) => t.duration == null && SLOW.test(fs.readFileSync(t.path, "utf8"));
    return [...failed, ...rest.filter(slow), ...rest.filter((t) => !slow(t))];
  }
}

module.exports = CliFirstSequencer;

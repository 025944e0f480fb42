// jest testEnvironment: Node's, plus a report of what a test file leaves keeping the worker's process
// alive. jest ends a worker by letting its event loop run dry, and force-exits one that has not
// within 500 ms ("A worker process has failed to exit gracefully"), without saying which file left
// what. So, after each file's own teardown (its afterAll hooks have run), the resources that keep
// the event loop alive (process.getActiveResourcesInfo(): ref'd timers, sockets, child processes,
// servers) are compared with those there before the file began; what is still above that a second
// later is named on stderr with the file, once per file. A report, not a failure: a resource the
// file closes a little later (a child's exit on a loaded machine) is named too.
//
// With RESELLER_TEST_CPU_LOG=<file>, each test file's CPU is appended there as a line
// `<cpu s>\t<wall s>\t<file>`: the worker's own and that of every process it started and waited
// for (the CLI and its plugins, npm, Go; Linux's /proc/self/stat), to find what a full run spends.
const fs = require("node:fs");
const path = require("node:path");
const { TestEnvironment } = require("jest-environment-node");
const { procCpu } = require("../../dev/pulumi-cli/proc-cpu");

const SETTLE_MS = 1000;

function counts() {
  const found = new Map();
  for (const type of process.getActiveResourcesInfo()) found.set(type, (found.get(type) ?? 0) + 1);
  return found;
}

/** This process's CPU and its waited-for children's, in seconds (undefined off Linux). */
function cpuWithChildren() {
  const cpu = procCpu();
  return cpu && cpu.own + cpu.children;
}

/** What `now` has above `before`, e.g. ["Timeout ×2", "TCPSocketWrap"]. */
function above(before, now) {
  const extra = [];
  for (const [type, n] of now) {
    const more = n - (before.get(type) ?? 0);
    if (more > 0) extra.push(more > 1 ? `${type} ×${more}` : type);
  }
  return extra;
}

class LeakReportingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    // The worker's standard input, made now if not yet: @pulumi/pulumi's automation module touches
    // `process.stdin` as it loads (its `import * as process` copies every property), which makes the
    // stream, and its pipe then counts as a resource of whichever file loaded the SDK first in the
    // worker, though unread it keeps nothing alive (workers with it exit at once).
    void process.stdin;
    this.before = counts();
    this.started = { cpu: cpuWithChildren(), wall: Date.now() };
  }

  async teardown() {
    await super.teardown();
    const file = path.relative(process.cwd(), this.testPath);
    const cpuLog = process.env.RESELLER_TEST_CPU_LOG;
    const cpu = cpuWithChildren();
    if (cpuLog && cpu !== undefined && this.started?.cpu !== undefined) {
      fs.appendFileSync(cpuLog, `${(cpu - this.started.cpu).toFixed(2)}\t${((Date.now() - this.started.wall) / 1000).toFixed(1)}\t${file}\n`);
    }
    const deadline = Date.now() + SETTLE_MS;
    let extra = above(this.before, counts());
    while (extra.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50).unref());
      extra = above(this.before, counts());
    }
    if (extra.length > 0) {
      process.stderr.write(`\n${file} left ${extra.join(", ")} keeping its jest worker alive ${SETTLE_MS} ms after its end (test/setup/environment.js)\n`);
    }
  }
}

module.exports = LeakReportingEnvironment;
module.exports.above = above;

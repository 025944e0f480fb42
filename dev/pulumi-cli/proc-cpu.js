// CPU time from Linux's /proc/self/stat: this process's own (utime, stime) and that of its children
// it has waited for, with theirs (cutime, cstime), in seconds. Read by npm test's background runner
// (a step's cost) and jest's test environment (a test file's). Undefined where there is no /proc.
"use strict";
const fs = require("node:fs");

/** @returns {{ own: number, children: number } | undefined} */
function procCpu() {
  try {
    // Fields 14 to 17 of proc(5), the 12th to 15th after the command's ")".
    const [utime, stime, cutime, cstime] = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ").slice(11, 15).map(Number);
    return { own: (utime + stime) / 100, children: (cutime + cstime) / 100 };
  } catch {
    return undefined;
  }
}

module.exports = { procCpu };

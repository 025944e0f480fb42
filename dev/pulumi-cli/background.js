#!/usr/bin/env node
// Builds that `npm test` does not wait for before its tests start: for-tests.js starts here what is
// missing of the pinned CLI, the YAML host and the oldest CLI, in that order, and lets jest begin. A
// suite that needs one of them waits for it (dev/pulumi-cli/index.ts calls `wait` until the part's
// stamp is there), and jest's global teardown waits for the end and says how it went, so no build
// outlives the command. On a fresh machine that overlaps minutes of compiling with the suites that
// need no CLI (test/setup/sequencer.js runs those first then); with everything built, nothing starts.
//
// State, in a folder (`.pulumi-cli/` for npm test): `background.json` holds the runner's process id,
// its steps and, once it has ended, its exit code; `background.log` its output. A step is the
// arguments of one `node` command, run in turn; the first that fails ends the run.
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { procCpu } = require("./proc-cpu");

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** The background builds whose state is in `dir`. */
function backgroundBuilds(dir) {
  const stateFile = path.join(dir, "background.json");
  const logFile = path.join(dir, "background.log");
  const read = () => {
    try {
      return JSON.parse(fs.readFileSync(stateFile, "utf8"));
    } catch {
      return undefined;
    }
  };
  return {
    logFile,
    /** Whether a runner is at work (started, not ended, not gone). */
    running() {
      const state = read();
      return !!state && state.code === undefined && alive(state.pid);
    },
    /** Starts a detached runner for `steps` unless one is at work; returns at once. */
    start(steps) {
      if (steps.length === 0 || this.running()) return;
      fs.mkdirSync(dir, { recursive: true });
      const log = fs.openSync(logFile, "w");
      const child = spawn(process.execPath, [__filename, "--run", dir, JSON.stringify(steps)], { detached: true, stdio: ["ignore", log, log] });
      fs.writeFileSync(stateFile, JSON.stringify({ pid: child.pid, steps }));
      fs.closeSync(log);
      child.unref();
    },
    /**
     * Blocks this thread (polling twice a second) while a runner is at work, or with `until` only until
     * that holds (a step's output is there while later steps still run). Returns how the last run
     * ended, `{ code }` (0: every step passed; -1: it is gone without saying), `{}` when `until` held
     * first, or undefined when none was ever started here.
     */
    wait(until = () => false) {
      for (let state = read(); ; state = read()) {
        if (!state) return undefined;
        if (state.code !== undefined) return { code: state.code };
        if (!alive(state.pid)) return { code: -1 };
        if (until()) return {};
        sleep(500);
      }
    },
    /** What to say when a run ended with `code` and left something unbuilt: the code and the log's end. */
    failureMessage(code) {
      return `npm test's build of what the tests need while they run failed (exit ${code}); the end of .pulumi-cli/background.log:\n${this.logTail()}`;
    },
    /** The end of the log, for a message about a failed step. */
    logTail(lines = 20) {
      try {
        return fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
      } catch {
        return "";
      }
    },
    /** The runner itself (in the detached process). */
    run(steps) {
      // The starter writes the state file right after spawning this: wait for it, so that it cannot
      // overwrite the end written below.
      for (let i = 0; i < 100 && read()?.pid !== process.pid; i++) sleep(50);
      let code = 0;
      for (const args of steps) {
        console.log(`background: node ${args.join(" ")}`);
        const started = { wall: Date.now(), cpu: procCpu()?.children };
        code = spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1;
        const cpu = procCpu()?.children;
        const cpuText = cpu === undefined || started.cpu === undefined ? "" : `, ${(cpu - started.cpu).toFixed(0)} CPU-s`;
        console.log(`background: exit ${code} after ${((Date.now() - started.wall) / 1000).toFixed(0)} s${cpuText}`);
        if (code !== 0) break;
      }
      fs.writeFileSync(stateFile, JSON.stringify({ ...read(), pid: process.pid, code }));
      return code;
    },
  };
}

if (require.main === module && process.argv[2] === "--run") process.exit(backgroundBuilds(process.argv[3]).run(JSON.parse(process.argv[4])));

/** npm test's: state in the checkout's `.pulumi-cli/`. */
const npmTestBuilds = backgroundBuilds(path.join(__dirname, "..", "..", ".pulumi-cli"));

module.exports = { backgroundBuilds, npmTestBuilds };

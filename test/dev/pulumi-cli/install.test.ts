/**
 * `npm run pulumi-cli` (dev/pulumi-cli/install.js): without Go it prints one line saying what is missing
 * and fails; with the CLI built and nothing changed, a second run does nothing; the built CLI prints
 * the pinned version.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PINNED_CLI, checkoutRoot, requirePulumiCli } from "../../../dev/pulumi-cli";

const install = path.join(checkoutRoot, "dev", "pulumi-cli", "install.js");

test("without Go: one line naming what is missing, exit 1", () => {
  // A PATH with node and nothing else.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "no-go-"));
  try {
    fs.symlinkSync(process.execPath, path.join(bin, "node"));
    const r = spawnSync(process.execPath, [install], { env: { PATH: bin, HOME: bin }, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^pulumi-cli: Go is not installed \(no `go` on PATH\)/)]);
  } finally {
    fs.rmSync(bin, { recursive: true, force: true });
  }
});

test("built: a second run rebuilds nothing, and the CLI is the pinned version", () => {
  // With the YAML host, which npm test may still be building (dev/pulumi-cli/background.js): waited for.
  const cli = requirePulumiCli(PINNED_CLI, { yamlHost: true });
  expect(cli.version).toBe(PINNED_CLI);
  const before = fs.statSync(cli.bin).mtimeMs;
  const r = spawnSync(process.execPath, [install], { encoding: "utf8" });
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toBe(`pulumi-cli: ${PINNED_CLI} is built (.pulumi-cli/${PINNED_CLI}); nothing to do`);
  expect(fs.statSync(cli.bin).mtimeMs).toBe(before);
});

test("a user's own pulumi on PATH is taken first where asked (the demo), with its version", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "own-pulumi-"));
  const saved = process.env.PATH;
  try {
    fs.symlinkSync(requirePulumiCli().bin, path.join(dir, "pulumi"));
    process.env.PATH = `${dir}${path.delimiter}${saved ?? ""}`;
    const { findPulumiCli } = require("../../../dev/pulumi-cli") as typeof import("../../../dev/pulumi-cli");
    expect(findPulumiCli({ preferPath: true })).toEqual({ bin: path.join(dir, "pulumi"), version: PINNED_CLI, origin: "PATH" });
    expect(findPulumiCli()).toMatchObject({ origin: "built", version: PINNED_CLI });
  } finally {
    process.env.PATH = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The committed SDK (sdk/nodejs/) is what Pulumi's Node.js code generator makes of schema.json
 * (dev/provider/sdkgen, at the CLI's pinned pkg/v3): `npm run provider-sdk -- --check` regenerates
 * it in memory and fails on any file that differs, is missing or is left over. Needs Go, as the CLI
 * build does.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

jest.setTimeout(600_000);
const root = path.resolve(__dirname, "..", "..", "..");
const check = () => spawnSync(process.execPath, [path.join(root, "dev", "provider", "sdk.js"), "--check"], { cwd: root, encoding: "utf8" });

test("regenerating the SDK from schema.json changes no file; a changed file fails the check, naming it", () => {
  const clean = check();
  expect({ code: clean.status, stderr: clean.stderr }).toEqual({ code: 0, stderr: "" });
  const file = path.join(root, "sdk", "nodejs", "index.ts");
  const text = fs.readFileSync(file, "utf8");
  try {
    fs.writeFileSync(file, `${text}// edited by hand\n`);
    const edited = check();
    expect(edited.status).not.toBe(0);
    expect(edited.stderr).toContain("changed: index.ts");
  } finally {
    fs.writeFileSync(file, text);
  }
});

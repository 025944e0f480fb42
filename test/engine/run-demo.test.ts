import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runDemo } from "../../demo/run-demo";
import { packageRoot } from "../../engine/host";

test("the demo script plans, applies, re-applies with no change, refreshes and destroys", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-demo-"));
  try {
    const lines: string[] = [];
    const result = await runDemo(
      {
        file: path.join(packageRoot(), "dist", "test", "engine", "fixtures", "things.js"),
        args: { things: [{ name: "a", body: "x" }, { name: "b", body: "yy" }], derived: true },
      },
      {
      config: { "fixture:dir": dir },
      stateFile: path.join(dir, "state.json"),
      log: (l) => lines.push(l),
    });
    expect(result).toMatchObject({ created: 3, changedOnSecondRun: 0, deleted: 3 });
    expect(result.refreshed).toMatchObject({ read: 3, same: 3 });
    expect(lines[lines.length - 1]).toBe("demo: created 3, changed on second run 0, deleted 3");
    expect(lines.filter((l) => l.startsWith("=== "))).toEqual([
      "=== pulumi preview ===",
      "=== pulumi up ===",
      "=== pulumi up (again: expect no changes) ===",
      "=== pulumi refresh ===",
      "=== pulumi destroy ===",
    ]);
    expect(fs.readdirSync(dir).filter((f) => !["calls.log", "state.json"].includes(f))).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

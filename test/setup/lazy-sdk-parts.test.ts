// The test run's preload (lazy-sdk-parts.js, put in NODE_OPTIONS by global-setup.js): the SDK's
// start-up leaves arborist and TypeScript unloaded until first used, and what uses them gets the same
// result as without the preload.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const PRELOAD = (require("./global-setup") as { PRELOAD: string }).PRELOAD;
const root = path.resolve(__dirname, "../..");

/** In a child process: what is loaded after the SDK's index, after serializing a function, after computeCodePaths. */
const probe = `
const pulumi = require("@pulumi/pulumi");
const loaded = () => Object.keys(require.cache)
  .filter((k) => /@npmcli[\\\\/]arborist[\\\\/]lib[\\\\/]index\\.js$|typescript[\\\\/]lib[\\\\/]typescript\\.js$/.test(k))
  .map((k) => (k.includes("arborist") ? "arborist" : "typescript")).sort();
const out = { index: loaded() };
pulumi.runtime.serializeFunction(function answer(x) { return x * 42; }).then((s) => {
  out.text = s.text;
  out.serialized = loaded();
  return pulumi.runtime.computeCodePaths();
}).then((paths) => {
  out.codePaths = [...paths.keys()];
  out.computed = loaded();
  process.stdout.write(JSON.stringify(out));
});
`;

function run(preload: boolean): { index: string[]; text: string; serialized: string[]; codePaths: string[]; computed: string[] } {
  // A project of its own with no dependencies, so computeCodePaths walks a tree of one package.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-sdk-parts-"));
  try {
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "probe", version: "1.0.0" }));
    const env = { ...process.env, NODE_PATH: path.join(root, "node_modules"), NODE_OPTIONS: preload ? `--require ${JSON.stringify(PRELOAD)}` : "" };
    const text = execFileSync(process.execPath, ["--no-warnings", "-e", probe], { cwd: dir, env, encoding: "utf8" });
    return JSON.parse(text) as ReturnType<typeof run>;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("this run's processes inherit the preload", () => {
  expect(process.env.NODE_OPTIONS).toContain(PRELOAD);
});

test("with the preload, the SDK loads arborist and TypeScript on first use only, with the same results", () => {
  const lazy = run(true);
  const eager = run(false);
  expect(eager.index).toEqual(["arborist", "typescript"]);
  expect(lazy.index).toEqual([]);
  // Serializing a function needs TypeScript, not arborist; computing code paths needs arborist.
  expect(lazy.serialized).toEqual(["typescript"]);
  expect(lazy.computed).toEqual(["arborist", "typescript"]);
  expect(lazy.text).toContain("x * 42");
  expect(lazy.text).toBe(eager.text);
  expect(lazy.codePaths).toEqual(eager.codePaths);

  // In this test file, jest's registry: the SDK gets the stand-ins (jest.config.js moduleNameMapper),
  // which are the real modules once used.
  const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const arborist = require("@npmcli/arborist") as { Arborist: unknown; __esModule?: boolean };
  // Not loaded yet (the real module has no __esModule): loading the SDK did not load it.
  expect(arborist.__esModule).toBe(true);
  expect(arborist.Arborist).toBe((require(require.resolve("@npmcli/arborist/lib/index.js")) as { Arborist: unknown }).Arborist);
  return pulumi.runtime.serializeFunction(function answer(x: number) { return x * 42; }).then((s) => {
    expect(s.text).toContain("x * 42");
  });
});

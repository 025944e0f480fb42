/**
 * The SDK host's echo of a thrown error (resources/host/sdk-echo.ts): the installed SDK still prints
 * what check, diff, read and delete throw as `${e}: ${e.stack}` (and create and update errors not at
 * all), and the filter drops exactly that line, once per error handed over, and nothing else.
 */
import * as fs from "node:fs";
import { dropExpectedEchoes, expectEcho } from "../../resources/host/sdk-echo";

test("the SDK's dynamic provider host prints an error of check, diff, read and delete as `${e}: ${e.stack}`, and none of create or update", () => {
  const host = fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");
  const methods = [...host.matchAll(/\n    (?:async )?(\w+)\(call, callback\) \{([\s\S]*?)\n    \}(?=\n)/g)].map((m) => [m[1], m[2]] as const);
  const echoing = methods.filter(([, body]) => body.includes("console.error(`${e}: ${e.stack}`)")).map(([name]) => name);
  expect(echoing).toEqual(expect.arrayContaining(["check", "diff", "read", "delete"]));
  expect(echoing).not.toContain("create");
  expect(echoing).not.toContain("update");
});

test("an echo expected is dropped once; the same line again, another line and a bug's trace are printed", () => {
  const printed: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void printed.push(args);
  try {
    dropExpectedEchoes();
    const refusal = Object.assign(new Error("example.com: a refusal"), { stack: "" });
    Object.defineProperty(refusal, "toString", { value: () => refusal.message });
    expectEcho(refusal);
    console.error(`${refusal}: ${refusal.stack}`);
    console.error(`${refusal}: ${refusal.stack}`);
    console.error("another line");
    const bug = new TypeError("x is undefined");
    console.error(`${bug}: ${bug.stack}`);
    expect(printed.map((a) => String(a[0]).split("\n")[0])).toEqual(["example.com: a refusal: ", "another line", "TypeError: x is undefined: TypeError: x is undefined"]);
  } finally {
    console.error = original;
  }
});

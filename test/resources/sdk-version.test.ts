/**
 * @pulumi/pulumi is a peer dependency whose floor is the first SDK whose dynamic provider host calls
 * `configure` (3.139.0, pulumi/pulumi#17697); an older SDK is refused by name with the version needed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareVersions, installedSdkVersion, MIN_SDK_VERSION, sdkTooOld } from "../../resources/shared/sdk-version";

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

test("the peer dependency's floor is the version the code refuses below; the SDK is no plain dependency", () => {
  expect(MIN_SDK_VERSION).toBe("3.139.0");
  expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(`^${MIN_SDK_VERSION}`);
  expect(pkg.dependencies["@pulumi/pulumi"]).toBeUndefined();
});

test("versions below 3.139.0 are refused with the version found, the version needed and the command; 3.139.0 and later pass", () => {
  const failure = sdkTooOld("3.138.0");
  expect(failure).toContain("@pulumi/pulumi 3.138.0 is older than 3.139.0");
  expect(failure).toContain("npm install @pulumi/pulumi@^3.139.0");
  expect(sdkTooOld("2.99.0")).toMatch(/2\.99\.0 is older than 3\.139\.0/);
  for (const ok of ["3.139.0", "3.139.1", "3.140.0", "3.270.0", "4.0.0", "3.200.0-alpha.1"]) expect(sdkTooOld(ok)).toBeUndefined();
  expect(compareVersions("3.99.9", "3.139.0")).toBeLessThan(0);
});

test("the SDK this repository runs passes the check", () => {
  const version = installedSdkVersion();
  expect(version).toMatch(/^\d+\.\d+\.\d+/);
  expect(sdkTooOld(version)).toBeUndefined();
});

test("the refusal also names the Pulumi CLI floor; compareVersions orders equal versions, prereleases and majors", () => {
  expect(MIN_SDK_VERSION).toBe("3.139.0");
  expect(compareVersions("3.139.0", "3.139.0")).toBe(0);
  expect(compareVersions("3.138.9", "3.139.0")).toBeLessThan(0);
  expect(compareVersions("3.140.0-alpha.1", "3.139.0")).toBeGreaterThan(0);
  expect(compareVersions("4.0.0", "3.139.0")).toBeGreaterThan(0);
  expect(sdkTooOld("3.139.0")).toBeUndefined();
  expect(sdkTooOld("3.248.0")).toBeUndefined();
  expect(sdkTooOld("3.138.0")).toMatch(/@pulumi\/pulumi 3\.138\.0 is older than 3\.139\.0, the first whose dynamic provider host passes the stack config .* Upgrade @pulumi\/pulumi to 3\.139\.0 or later .* Pulumi CLI to 3\.139\.0 or later/);
  // The installed SDK (what this repository runs) is new enough.
  expect(sdkTooOld()).toBeUndefined();
});

test("in the provider host the version read is the host's own SDK, not the copy this package resolves", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "old-sdk-"));
  const sdk = path.join(dir, "node_modules", "@pulumi", "pulumi");
  fs.mkdirSync(path.join(sdk, "cmd", "dynamic-provider"), { recursive: true });
  fs.writeFileSync(path.join(sdk, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", version: "3.138.0" }));
  const main = path.join(sdk, "cmd", "dynamic-provider", "index.js");
  expect(installedSdkVersion(main)).toBe("3.138.0");
  expect(sdkTooOld(installedSdkVersion(main))).toMatch(/@pulumi\/pulumi 3\.138\.0 is older than 3\.139\.0/);
  // Any other main module: the copy this package resolves.
  expect(installedSdkVersion(path.join(dir, "index.js"))).toBe(installedSdkVersion(undefined));
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * @pulumi/pulumi is a peer dependency whose floor is the first SDK whose dynamic provider host calls
 * `configure` (3.139.0, pulumi/pulumi#17697); an older SDK is refused by name with the version needed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { compareVersions, installedSdkVersion, MIN_SDK_VERSION, sdkTooOld } from "../../resources/sdk-version";

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

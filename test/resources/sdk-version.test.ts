/**
 * @pulumi/pulumi is a peer dependency whose floor is the first SDK whose dynamic provider host calls
 * `configure` (3.139.0, pulumi/pulumi#17697); an older SDK is refused by name with the version needed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { atLeast, checkSdkVersion, MIN_PULUMI_SDK, sdkVersionFailure } from "../../resources/sdk-version";

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

test("the peer dependency's floor is the version the code refuses below; the SDK is no plain dependency", () => {
  expect(MIN_PULUMI_SDK).toBe("3.139.0");
  expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(`^${MIN_PULUMI_SDK}`);
  expect(pkg.dependencies["@pulumi/pulumi"]).toBeUndefined();
});

test("versions below 3.139.0 are refused with the name and the version needed; 3.139.0 and later pass", () => {
  expect(sdkVersionFailure("3.138.0")).toBe(
    "reseller-pulumi needs @pulumi/pulumi 3.139.0 or newer, found 3.138.0: older SDKs never pass the stack config to dynamic providers, so no resource could get its credentials. Run: npm install @pulumi/pulumi@^3.139.0",
  );
  expect(sdkVersionFailure("2.99.0")).toMatch(/needs @pulumi\/pulumi 3\.139\.0 or newer, found 2\.99\.0/);
  for (const ok of ["3.139.0", "3.139.1", "3.140.0", "3.270.0", "4.0.0", "3.200.0-alpha.1"]) expect(sdkVersionFailure(ok)).toBeUndefined();
  expect(atLeast("3.99.9", "3.139.0")).toBe(false);
});

test("the SDK this repository runs passes the check", () => {
  expect(() => checkSdkVersion()).not.toThrow();
});

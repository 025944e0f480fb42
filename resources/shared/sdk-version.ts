/**
 * The oldest Pulumi versions this package works with, and the check. Credentials reach the provider
 * only through the dynamic provider's `configure(req)`, which the SDK's provider host calls, and the
 * CLI fills with the stack config, from 3.139.0 on (pulumi/pulumi CHANGELOG 3.139.0: "Allow accessing
 * configuration in Node.js dynamic providers", #17697; the CLI side is in the same release, #17673).
 * Older versions never call `configure`, so every create would fail with "missing configuration".
 */

/** Oldest `@pulumi/pulumi` (the SDK, whose provider host calls `configure`). */
export const MIN_SDK_VERSION = "3.139.0";
/** Oldest Pulumi CLI (the engine that sends the stack config to dynamic providers). */
export const MIN_CLI_VERSION = "3.139.0";

/** Compares dotted versions numerically (pre-release tags ignored); negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[-+]/)[0].split(".").map((x) => Number.parseInt(x, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The `@pulumi/pulumi` version that matters: in the provider host, the SDK the host itself runs from
 * (its main module is `@pulumi/pulumi/cmd/dynamic-provider`), which may be another copy than the one
 * this package resolves; elsewhere the one this package resolves. Undefined when it cannot be read.
 */
export function installedSdkVersion(main: string | undefined = require.main?.filename): string | undefined {
  const read = (file: string): string | undefined => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require(file) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  const host = main ? /^(.*[\\/]@pulumi[\\/]pulumi)[\\/]cmd[\\/]dynamic-provider[\\/]/.exec(main) : null;
  return (host && read(`${host[1]}/package.json`)) || read("@pulumi/pulumi/package.json");
}

/** Why this SDK version cannot work, or undefined when it can (or is unknown). */
export function sdkTooOld(version: string | undefined = installedSdkVersion()): string | undefined {
  if (!version || compareVersions(version, MIN_SDK_VERSION) >= 0) return undefined;
  return (
    `reseller: @pulumi/pulumi ${version} is older than ${MIN_SDK_VERSION}, the first whose dynamic provider host passes the stack config ` +
    `(reseller:apiKey, reseller:apiSecret, reseller:baseUrl) to providers; with it every create fails for want of credentials. ` +
    `Upgrade @pulumi/pulumi to ${MIN_SDK_VERSION} or later (npm install @pulumi/pulumi@^3.139.0), and the Pulumi CLI to ${MIN_CLI_VERSION} or later.`
  );
}

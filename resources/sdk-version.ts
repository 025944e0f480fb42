/**
 * The lowest @pulumi/pulumi this package works with: 3.139.0 is the first whose dynamic provider host
 * calls `configure` with the stack config (pulumi/pulumi#17697); with an older SDK every create would
 * fail for want of credentials. Checked in the program (resource constructors) and in the host.
 */
export const MIN_PULUMI_SDK = "3.139.0";

function parts(v: string): number[] {
  return v.split(/[.+-]/, 3).map((x) => Number.parseInt(x, 10) || 0);
}

/** Whether version `v` is at least `min` (major.minor.patch; pre-release tags ignored). */
export function atLeast(v: string, min: string): boolean {
  const a = parts(v);
  const b = parts(min);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The message for an SDK that is too old, or undefined when `version` is recent enough. */
export function sdkVersionFailure(version: string): string | undefined {
  if (atLeast(version, MIN_PULUMI_SDK)) return undefined;
  return `reseller-pulumi needs @pulumi/pulumi ${MIN_PULUMI_SDK} or newer, found ${version}: older SDKs never pass the stack config to dynamic providers, so no resource could get its credentials. Run: npm install @pulumi/pulumi@^3.139.0`;
}

let checked = false;

/** Throws when the @pulumi/pulumi this package resolves is older than MIN_PULUMI_SDK; checks once. */
export function checkSdkVersion(): void {
  if (checked) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require("@pulumi/pulumi/package.json") as { version: string };
  const failure = sdkVersionFailure(version);
  if (failure) throw new Error(failure);
  checked = true;
}

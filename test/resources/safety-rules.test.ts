/**
 * The pure rules behind issue 16: which records the service manages (one predicate, shared by
 * validation, the zone-delete guard, import and the sandbox), when a record replace must delete
 * first, and the Pulumi version floor.
 */
import { isServiceManagedRecord } from "../../provider/contract";
import { diffRecord } from "../../resources/diff";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareVersions, installedSdkVersion, MIN_SDK_VERSION, sdkTooOld } from "../../resources/sdk-version";
import { checkRecordInputs, type RecordInputs } from "../../resources/validate";
import { generateProgram } from "../../cli/codegen";

test("service-managed records: SOA anywhere and NS at the apex in every spelling; NS below the apex is the user's", () => {
  const z = "example.com";
  const managed = [
    { type: "SOA", name: "@" },
    { type: "ns", name: "@" },
    { type: "NS", name: "" },
    { type: "NS", name: "example.com" },
    { type: "NS", name: "EXAMPLE.com." },
  ];
  const users = [
    { type: "NS", name: "dev" },
    { type: "NS", name: "dev.example.com." },
    { type: "A", name: "@" },
    { type: "TXT", name: "ns" },
  ];
  expect(managed.map((r) => isServiceManagedRecord(z, r))).toEqual(managed.map(() => true));
  expect(users.map((r) => isServiceManagedRecord(z, r))).toEqual(users.map(() => false));
});

test("validation uses the same predicate: NS at the apex refused by name, a delegation below it accepted", () => {
  const apex = checkRecordInputs({ zone: "example.com", type: "NS", name: "example.com.", content: "ns1.other.net.", ttl: 3600 });
  expect(apex.failures.map((f) => f.property)).toEqual(["name"]);
  expect(apex.failures[0].reason).toMatch(/the service manages the zone apex NS records/);
  expect(checkRecordInputs({ zone: "example.com", type: "NS", name: "dev", content: "ns1.other.net.", ttl: 3600 }).failures).toEqual([]);
});

test("record replace deletes first exactly for a type change to or from CNAME on the same name and zone", () => {
  const olds = { zone: "example.com", name: "www", type: "A", content: "192.0.2.1", ttl: 300 };
  const cases: [RecordInputs, RecordInputs, boolean][] = [
    [olds, { ...olds, type: "CNAME", content: "x.example.net." }, true],
    [{ ...olds, type: "CNAME", content: "x.example.net." }, { ...olds, type: "TXT", content: "t" }, true],
    [{ ...olds, type: "CNAME", content: "x.example.net." }, { ...olds, type: "A" }, true],
    [olds, { ...olds, type: "AAAA", content: "2001:db8::1" }, false],
    [olds, { ...olds, type: "TXT", content: "t" }, false],
    [olds, { ...olds, name: "web", type: "CNAME", content: "x.example.net." }, false],
    [olds, { ...olds, zone: "example.org", type: "CNAME", content: "x.example.net." }, false],
    [olds, { ...olds, name: "web" }, false],
    [olds, { ...olds, content: "192.0.2.2" }, false],
  ];
  expect(cases.map(([o, n]) => diffRecord(o, n).deleteBeforeReplace)).toEqual(cases.map(([, , want]) => want));
});

test("SDK floor: 3.139.0 and later pass, older versions are refused naming the version and the fix", () => {
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

test("import writes a program whose adopt: true stays correct after edits, and says how to rename", () => {
  const text = generateProgram({ domains: [], zones: [{ domain: "example.com", status: "active", records: [] }] } as never);
  expect(text).toMatch(/`adopt: true` may stay:\n\/\/ a record, zone or child host changed into a new one is created when there is nothing\n\/\/ identical to take; a Domain, PrivacyAddon or Protection is never bought while it is set\./);
  expect(text).toMatch(/add its old name with `aliases`/);
});

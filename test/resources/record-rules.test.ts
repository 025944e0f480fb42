/**
 * Record rules, offline: which records the service manages (one predicate, shared by validation,
 * the zone-delete guard, import and the sandbox), and when a record replace must delete first.
 */
import { isServiceManagedRecord } from "../../api/contract";
import { diffRecord } from "../../resources/dns-record/diff";
import { checkRecordInputs } from "../../resources/dns-record/schema";
import { type RecordInputs } from "../../resources/dns-record/state";

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

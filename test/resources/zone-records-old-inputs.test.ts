/**
 * DnsZoneRecords' check plans against the live zone with the records the last up declared: read
 * from state's inputs whether packed (a TTL under each key) or written before the packing (the
 * record under each key). A record declared then and dropped now is the resource's to delete, not
 * a record "left alone". Handler called directly, the sandbox over HTTP.
 */
import { zoneRecordsHandler } from "../../resources/zone-records/handler";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { testHost } from "../support/host-context";

const ZONE = "demo-reseller.com";
const urn = "urn:pulumi:dev::p::reseller:index:DnsZoneRecords::zr";
const apex = { type: "A", name: "@", content: "192.0.2.10", ttl: 3600 };
const mail = { type: "A", name: "mail", content: "192.0.2.25", ttl: 3600 };
const settings = { zone: ZONE, authoritative: false, safety: { maxChangeShare: 0.3, minExistingRecords: 10 }, allowLargeChanges: false, resourceUrn: urn };

let sb: SandboxHandle;
beforeAll(async () => (sb = await startSandbox({ requestsPerMinute: 10000 })));
afterAll(() => sb.close());

const leftAlone = (lines: string[]): string[] => lines.filter((l) => l.includes("not declared and left alone")).flatMap((l) => l.split("\n").slice(1).map((k) => k.trim()));

test.each([
  ["packed", { "@ A 192.0.2.10": 3600, "mail A 192.0.2.25": 3600 }],
  ["written before the packing", { "@ A 192.0.2.10": apex, "mail A 192.0.2.25": mail }],
])("inputs %s: the record dropped from the declaration is not listed as left alone", async (_label, records) => {
  const { host, ctx, lines } = testHost();
  host.useSettings({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret });
  const olds = { ...settings, records };
  const r = await zoneRecordsHandler.check(ctx, olds, { zone: ZONE, records: [apex], resourceUrn: urn });
  expect(r.failures).toEqual([]);
  const alone = leftAlone(lines);
  // The zone's other records are left alone; the one this resource declared before is not among them.
  expect(alone).toContain("www CNAME demo-reseller.com.");
  expect(alone).not.toContain("mail A 192.0.2.25");
});

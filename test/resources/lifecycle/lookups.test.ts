/**
 * The lookups (getZone, getRecords, getDomain and their …Output forms), through the SDK in the
 * program's process against the sandbox over real HTTP: what each reads, that it sends GETs only,
 * through the credential's rate limiter (its shared log), and that a missing zone or domain fails
 * in one line naming it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { PRIVACY_STATUS } from "../../../api/vocabulary";
import { startSandbox, type SandboxHandle } from "../../../sandbox/index";
import { getDomain, getDomainOutput, getRecords, getRecordsOutput, getZone, getZoneOutput } from "../../../resources";

const ZONE = "demo-reseller.com";
let sandbox: SandboxHandle;
let logDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000 });
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), "lookups-rate-"));
  pulumi.runtime.setAllConfig(
    {
      "reseller:apiKey": sandbox.credentials.key,
      "reseller:apiSecret": sandbox.credentials.secret,
      "reseller:baseUrl": sandbox.url,
      "reseller:requestsPerMinute": "100000",
      "reseller:rateLimitDir": logDir,
    },
    ["reseller:apiSecret"],
  );
});
afterAll(async () => {
  await sandbox?.close();
  fs.rmSync(logDir, { recursive: true, force: true });
});

const outputValue = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));

/** What `body` sent: method and path (with query) of each request the sandbox saw. */
async function sent(body: () => Promise<unknown>): Promise<string[]> {
  const mark = sandbox.operator.requests().length;
  await body();
  return sandbox.operator.requests().slice(mark).map((r) => `${r.method} ${r.path}`);
}

test("getZone reads status, nameservers, delegation and every record, canonical like a DnsRecord's outputs, with one GET", async () => {
  let zone: Awaited<ReturnType<typeof getZone>> | undefined;
  expect(await sent(async () => (zone = await getZone({ domain: "Demo-Reseller.COM." })))).toEqual([`GET /api/v1/dns/zones/${ZONE}`]);
  expect(zone).toMatchObject({ domain: ZONE, status: "active", delegated: true, nameservers: expect.arrayContaining([expect.any(String)]), recordsCount: 14 });
  expect(zone!.records).toHaveLength(14);
  expect(zone!.records).toEqual(
    expect.arrayContaining([
      { recordId: "rec_5", fqdn: `www.${ZONE}`, type: "CNAME", name: "www", content: ZONE, ttl: 3600, priority: null, extra: null },
      { recordId: "rec_9", fqdn: `_sip._tcp.${ZONE}`, type: "SRV", name: "_sip._tcp", content: `sip.${ZONE}`, ttl: 3600, priority: 10, extra: { weight: 5, port: 5060 } },
      expect.objectContaining({ recordId: "rec_6", type: "MX", name: "@", fqdn: ZONE, priority: 10 }),
    ]),
  );
  const viaOutput = await outputValue(getZoneOutput({ domain: pulumi.output("demo-reseller.com") }));
  expect(viaOutput).toEqual(zone);
});

test("getRecords filters by type (asked of the service) and by name (relative or fully qualified); no match is an empty list", async () => {
  let mx: Awaited<ReturnType<typeof getRecords>> | undefined;
  expect(await sent(async () => (mx = await getRecords({ zone: ZONE, type: "mx" })))).toEqual([expect.stringMatching(new RegExp(`^GET /api/v1/dns/zones/${ZONE}/records\\?(.*&)?type=MX(&|$)`))]);
  expect(mx!.zone).toBe(ZONE);
  expect(mx!.records.map((r) => [r.type, r.priority, r.content])).toEqual([
    ["MX", 10, `mx1.${ZONE}`],
    ["MX", 20, `mx2.${ZONE}`],
  ]);
  expect((await getRecords({ zone: ZONE, name: "www" })).records.map((r) => r.recordId)).toEqual(["rec_5"]);
  expect((await getRecords({ zone: ZONE, name: `www.${ZONE}.` })).records.map((r) => r.recordId)).toEqual(["rec_5"]);
  expect((await getRecords({ zone: ZONE, name: "@", type: "A" })).records.map((r) => r.content)).toEqual(["192.0.2.10"]);
  expect((await getRecords({ zone: ZONE, name: "nothing-here" })).records).toEqual([]);
  const viaOutput = await outputValue(getRecordsOutput({ zone: pulumi.output(ZONE), name: Promise.resolve("mail") }));
  expect(viaOutput.records.map((r) => `${r.fqdn} ${r.type} ${r.content}`)).toEqual([`mail.${ZONE} A 192.0.2.25`]);
});

test("getRecords refuses a filter that names no record type or name before any request, naming the field", async () => {
  expect(
    await sent(async () => {
      await expect(getRecords({ zone: ZONE, type: "C NAME" })).rejects.toThrow(/^reseller: type: "C NAME" is not a record type/);
      await expect(getRecords({ zone: ZONE, name: "bad name!" })).rejects.toThrow(/^reseller: name: "bad name!" /);
      await expect(getRecords({ zone: "not a zone", type: "A" })).rejects.toThrow(/^reseller: zone: "not a zone" is not a valid domain name/);
    }),
  ).toEqual([]);
});

test("getDomain reads stage, expiry, nameservers, lock, privacy and protection; contacts only as a secret output", async () => {
  let d: Awaited<ReturnType<typeof getDomain>> | undefined;
  const requests = await sent(async () => (d = await getDomain({ domain: ZONE })));
  expect(requests.every((r) => r.startsWith(`GET /api/v1/domains/${ZONE}`))).toBe(true);
  expect(requests).toEqual(expect.arrayContaining([`GET /api/v1/domains/${ZONE}`, `GET /api/v1/domains/${ZONE}/contacts`]));
  expect(d).toMatchObject({
    domain: ZONE,
    stage: "active",
    expiryDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    locked: true,
    privacy: { enabled: true, status: PRIVACY_STATUS.live },
    protection: { enabled: false, status: "off" },
  });
  expect(await pulumi.isSecret(d!.contacts)).toBe(true);
  const contacts = await outputValue(d!.contacts);
  expect(contacts.registrant).toEqual(expect.objectContaining({ email: expect.stringContaining("@"), addressLine1: expect.any(String), postalCode: expect.any(String) }));
  // Nothing but `contacts` holds personal data: the rest prints without it.
  const { contacts: _held, ...plain } = d!;
  expect(JSON.stringify(plain)).not.toContain(contacts.registrant!.email);

  expect((await getDomain({ domain: "protected-brand.com" })).protection).toEqual({ enabled: true, status: "on" });

  // The …Output form: its fields are plain outputs, its contacts a secret one.
  const info = getDomainOutput({ domain: pulumi.output(ZONE) });
  expect(await outputValue(info.stage)).toBe("active");
  expect(await pulumi.isSecret(info.stage)).toBe(false);
  expect(await pulumi.isSecret(info.contacts)).toBe(true);
  expect((await outputValue(info.contacts)).registrant).toEqual(contacts.registrant);
});

test("a zone or domain the account does not hold fails in one line naming it; a foreign domain too", async () => {
  const oneLine = (s: string) => new RegExp(`^reseller: ${s}[^\\n]*$`);
  await expect(getZone({ domain: "no-zone-here.com" })).rejects.toThrow(oneLine("getZone: the account has no DNS zone no-zone-here\\.com "));
  await expect(getRecords({ zone: "no-zone-here.com", type: "TXT" })).rejects.toThrow(oneLine("getRecords: the account has no DNS zone no-zone-here\\.com "));
  await expect(getDomain({ domain: "example.com" })).rejects.toThrow(oneLine("getDomain: the account holds no domain example\\.com "));
});

test("lookups send only GETs, each through the credential's rate limiter: its shared log counts every request the service saw", async () => {
  const before = sandbox.operator.requests().length;
  await getZone({ domain: ZONE });
  await getRecords({ zone: ZONE, type: "TXT" });
  await getDomain({ domain: "demo-shop.net" });
  const seen = sandbox.operator.requests();
  expect(seen.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
  const logs = fs.readdirSync(logDir).filter((f) => f.endsWith(".log"));
  expect(logs).toHaveLength(1); // the one credential's
  const log = fs.readFileSync(path.join(logDir, logs[0]), "utf8");
  // Every request of this file went through the window (paced, and counted for other processes).
  expect(log.split("\n").filter((l) => l.startsWith("s ")).length).toBe(seen.length);
});

/**
 * cli/import-file.ts against the sandbox over real HTTP: the client it uses refuses every operation
 * that may change something before it is sent and asks each read once; an adoption that would have
 * to change the account (a record whose TTL differs) is refused by name, with nothing written.
 */
import { importFile, readOnlyClient, topLevelUrn } from "../../cli/import-file";
import { ResellerClient } from "../../api/client";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

let sandbox: SandboxHandle;
let client: ResellerClient;
let zone: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelaySeconds: 0, requestsPerMinute: 6000 });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000 });
  zone = (await client.listZones()).find((z) => z.status === "active" && z.records_count > 0)!.domain;
});
afterAll(() => sandbox?.close());

const settings = () => ({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 6000 });
const requests = () => sandbox.operator.requests().length;

test("the read-only client sends no write and asks each read once", async () => {
  const ro = readOnlyClient(client);
  const mark = requests();
  await expect(ro.createRecord(zone, { type: "TXT", name: "x", content: "never sent", ttl: 300 })).rejects.toThrow("POST /dns/zones/{domain}/records (createRecord)");
  expect(requests()).toBe(mark);
  const [a, b] = [await ro.listRecords(zone, {}), await ro.listRecords(zone)];
  expect(b).toBe(a);
  expect(sandbox.operator.requests().slice(mark).map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([`GET /api/v1/dns/zones/${zone}/records`]);
});

test("a record whose adoption would change its TTL is refused, naming the resource and the request, and nothing is written", async () => {
  const live = (await client.listRecords(zone, {})).find((r) => r.type.toUpperCase() === "A")!;
  const target = { project: "p", stack: "dev" };
  const decl = { kind: "DnsRecord" as const, name: "www", args: { zone, type: "A", name: live.name, content: live.content, ttl: live.ttl + 60, adopt: true } };
  const mark = requests();
  await expect(importFile([decl], target, settings(), client, "provider text")).rejects.toThrow(
    "DnsRecord www: adopting it would change the account (PUT /dns/zones/{domain}/records/{id} (updateRecord)), so it cannot be imported unchanged",
  );
  expect(sandbox.operator.requests().slice(mark).filter((r) => r.method !== "GET")).toEqual([]);
  // The same record at its live TTL: inputs and outputs as up stores them, with the provider text and the URN.
  const same = await importFile([{ ...decl, args: { ...decl.args, ttl: live.ttl } }], target, settings(), client, "provider text");
  expect(same.resources).toEqual([
    {
      type: "pulumi-nodejs:dynamic/reseller:DnsRecord",
      name: "www",
      id: live.id,
      inputs: expect.objectContaining({ zone, resourceUrn: topLevelUrn(target, "DnsRecord", "www"), adopt: true, __provider: "provider text" }),
      outputs: expect.objectContaining({ recordId: live.id, adopted: true, __provider: "provider text" }),
    },
  ]);
});

/**
 * What the import's read-only client lets through (cli/import-file.ts readOnlyClient, over the real
 * client and the sandbox): the zone's delegation re-check (POST /dns/zones/{domain}/check) activates
 * a pending zone whose domain is delegated, so it is no read (api/operations.ts). The read-only
 * client refuses it before anything is sent, and the zone stays pending; the same call of the plain
 * client activates it. It stays one the client may resend after a lost answer (idempotent).
 */
import { ResellerClient } from "../../api/client";
import { OPERATIONS, requestSafety } from "../../api/operations";
import { readOnlyClient, WouldWriteError } from "../../cli/import-file";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

const SERVICE_NS = ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"];
let sandbox: SandboxHandle;
let client: ResellerClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000 });
  client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000, rateLimitLogDir: null });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

test("the zone re-check through the read-only client is refused unsent, and the pending zone stays pending_nameserver; the plain client's activates it", async () => {
  const domain = "demo-shop.net";
  await client.createZone(domain);
  await client.setNameservers(domain, SERVICE_NS);
  expect((await client.getZone(domain)).status).toBe("pending_nameserver");

  const before = sandbox.operator.requests().length;
  await expect(readOnlyClient(client).checkZone(domain)).rejects.toThrow(WouldWriteError);
  await expect(readOnlyClient(client).checkZone(domain)).rejects.toThrow("POST /dns/zones/{domain}/check (checkZone)");
  expect(sandbox.operator.requests().slice(before)).toEqual([]);
  expect((await client.getZone(domain)).status).toBe("pending_nameserver");

  // What the re-check does: the zone becomes active.
  expect((await client.checkZone(domain)).status).toBe("active");
  expect((await client.getZone(domain)).status).toBe("active");
});

test("classed by what it does: not read-only, but idempotent, so a lost answer is resent as before", () => {
  expect({ readOnly: OPERATIONS.checkZone.readOnly, idempotent: OPERATIONS.checkZone.idempotent, safety: requestSafety(OPERATIONS.checkZone, false) }).toEqual({ readOnly: false, idempotent: true, safety: "safe" });
  // An unkeyed POST that creates stays "creating": never resent blindly.
  expect(requestSafety(OPERATIONS.createZone, false)).toBe("creating");
});

/**
 * Pacing across a restart of the SDK's provider host within one command: the second host reads the
 * credential's request log the first one left and keeps the window. Scaled: the contract's window
 * is 4 s and the limit 10 per window (both the client and the sandbox follow the contract), so the
 * test takes seconds instead of minutes; the 60-a-minute case runs on a virtual clock in
 * test/provider/rate-limiter.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startProviderHost, type ProviderHost } from "../../engine/host";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { maxInWindow } from "../../bench/records";
import { atMs } from "../../bench/measure";
import { providerFor, ROOT, urnOf } from "./lifecycle/harness";

const WINDOW_S = 4;
const PER_MINUTE = 150; // 10 per 4-second window
const contract = { rateLimit: { windowSeconds: WINDOW_S } };

let sb: SandboxHandle;
const hosts: ProviderHost[] = [];
afterAll(async () => {
  for (const h of hosts) await h.close().catch(() => undefined);
  await sb?.close();
});

async function host(): Promise<ProviderHost> {
  const h = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  hosts.push(h);
  await h.configure({
    "reseller:apiKey": sb.credentials.key,
    "reseller:apiSecret": sb.credentials.secret,
    "reseller:baseUrl": sb.url,
    "reseller:requestsPerMinute": String(PER_MINUTE),
    "reseller:contract": JSON.stringify(contract),
  });
  return h;
}

test("a provider host started after another in the same command keeps the window: no 429, never more than the limit", async () => {
  if (!fs.existsSync(path.join(ROOT, "dist/resources/runtime.js"))) throw new Error("run `npm run build` first");
  sb = await startSandbox({ port: 0, requestsPerMinute: PER_MINUTE, contract, processingDelaySeconds: 0 });
  const urn = urnOf("DnsZone", "z");
  const props = { domain: "demo-reseller.com", resourceUrn: urn, __provider: await providerFor("DnsZone") };
  // Each zone read is one GET of the zone.
  const reads = (h: ProviderHost, n: number) => Promise.all(Array.from({ length: n }, () => h.read("demo-reseller.com", urn, props)));

  const first = await host();
  await reads(first, 15);
  await first.kill();
  const second = await host();
  await reads(second, 15);

  const log = sb.operator.requests();
  expect(log).toHaveLength(30);
  expect(log.filter((e) => e.status === 429)).toHaveLength(0);
  expect(maxInWindow(log.map(atMs), WINDOW_S * 1000)).toBeLessThanOrEqual(10);
}, 60_000);

/**
 * Several processes on one credential (CI jobs on one runner, provider hosts of parallel stacks):
 * three child processes, each a client sending 15 requests at once, share the credential's log and
 * together never exceed the limit the sandbox enforces. Scaled: a 4-second window admitting 10
 * (both sides follow contract.rateLimit.windowSeconds). Without the shared log they draw 429s.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { atMs, maxInWindow } from "../support/request-log";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

const ROOT = path.resolve(__dirname, "../..");
const contract = { rateLimit: { windowSeconds: 4 } };
const PER_MINUTE = 150; // 10 per 4-second window

function child(sb: SandboxHandle, logDir: string | null): Promise<number> {
  const code = `
    const { ResellerClient } = require(${JSON.stringify(path.join(ROOT, "dist/api/client.js"))});
    const c = new ResellerClient(${JSON.stringify({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, requestsPerMinute: PER_MINUTE, contract, rateLimitLogDir: logDir })});
    Promise.all(Array.from({ length: 15 }, () => c.getDomain("demo-reseller.com")))
      .then(() => c.close())
      .then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });`;
  return new Promise((resolve) => spawn(process.execPath, ["-e", code], { stdio: "inherit" }).on("exit", (c) => resolve(c ?? 1)));
}

let dir: string;
beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, "dist/api/client.js"))) throw new Error("run `npm run build` first");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rate-procs-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each([
  { shared: true, what: "with the shared log: no 429, never more than 10 in a window" },
  { shared: false, what: "memory only (control): the three together draw 429s" },
])("three processes on one credential, $what", async ({ shared }) => {
  const sb = await startSandbox({ port: 0, requestsPerMinute: PER_MINUTE, contract, processingDelaySeconds: 0 });
  try {
    const codes = await Promise.all([0, 1, 2].map(() => child(sb, shared ? dir : null)));
    expect(codes).toEqual([0, 0, 0]);
    const log = sb.operator.requests();
    const ok = log.filter((e) => e.status === 200);
    expect(ok).toHaveLength(45);
    const refused = log.filter((e) => e.status === 429).length;
    if (shared) {
      expect(refused).toBe(0);
      expect(maxInWindow(ok.map(atMs), 4000)).toBeLessThanOrEqual(10);
    } else expect(refused).toBeGreaterThan(0);
  } finally {
    await sb.close();
  }
}, 120_000);

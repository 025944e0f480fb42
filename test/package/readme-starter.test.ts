/**
 * The README's first program, as its text says to try it: the DNS of a domain the account already
 * holds (the sandbox's demo-reseller.com), previewed and applied through engine/ (the SDK's provider
 * host over gRPC) against the sandbox. The zone is adopted, the two records are created, nothing is
 * bought. (The second program, which buys a domain, is test/package/pack.test.ts's.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generatedProgram } from "../../bench/program-file";
import { Engine } from "../../engine/engine";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

jest.setTimeout(300_000);

const root = path.resolve(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const starter = /^## Manage the DNS of a domain you already have$([\s\S]*?)^## /m.exec(readme)![1];
const program = /^```ts\n([\s\S]*?)^```/m.exec(starter)![1];

let sandbox: SandboxHandle;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "readme-starter-"));
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the DNS-only program: preview adopts the zone and creates two records; up does that, buying nothing; a second up changes nothing", async () => {
  // The domain the README names for the sandbox.
  expect(starter).toContain("pulumi config set domain demo-reseller.com");
  fs.writeFileSync(path.join(dir, "index.ts"), program);
  const engine = new Engine({
    projectDir: dir,
    project: "starter",
    config: {
      "reseller:baseUrl": sandbox.url,
      "reseller:apiKey": sandbox.credentials.key,
      "reseller:apiSecret": sandbox.credentials.secret,
      "reseller:requestsPerMinute": "6000",
      "starter:domain": "demo-reseller.com",
    },
    secretConfigKeys: ["reseller:apiSecret"],
    log: () => undefined,
  });
  const compiled = generatedProgram(dir);
  const ledger = sandbox.operator.ledger().length;

  const preview = await engine.preview(compiled);
  expect(preview.summary).toMatchObject({ adopt: 1, create: 2 });
  const before = sandbox.operator.requests().length;
  const up = await engine.up(compiled);
  expect(up.summary).toMatchObject({ create: 3 }); // the engine, as the CLI, counts adoptions apart only in a preview
  const zone = engine.resources().find((r) => r.type.endsWith(":DnsZone"));
  expect(zone?.outputs).toMatchObject({ domain: "demo-reseller.com", adopted: true });
  expect(up.outputs).toMatchObject({ appFqdn: "app.demo-reseller.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"] });
  const writes = sandbox.operator.requests().slice(before).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
  expect(writes).toEqual([expect.stringMatching(/^POST .*\/dns\/zones\/demo-reseller\.com\/records$/), expect.stringMatching(/^POST .*\/dns\/zones\/demo-reseller\.com\/records$/)]);
  expect(sandbox.operator.ledger().length).toBe(ledger);

  expect((await engine.up(compiled)).summary).toMatchObject({ same: 3, create: 0, update: 0 });
});

/**
 * `reseller-pulumi import` checks record types as check does (dns/types.ts): from a zone
 * file, and from the live account over real HTTP (the sandbox, which like the service holds any type
 * name). A typo is not written into the program but listed with the nearest type; an unassigned
 * TYPEnnn and the names given with --record-types (the contract's recordTypes) are carried.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { ResellerClient } from "../../api/client";
import { startSandbox } from "../../sandbox/index";

let dir: string;
let out: string[];
let err: string[];
const io = (env: NodeJS.ProcessEnv = {}): CliIo => ({ env, out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-types-"));
  out = [];
  err = [];
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("--zone-file: a typo is listed with the nearest type, not carried; TYPEnnn and --record-types names are carried", async () => {
  fs.writeFileSync(
    path.join(dir, "example.com.zone"),
    ["$TTL 300", "www A 192.0.2.1", "shop CNAM shops.example.net.", "priv TYPE65280 \\# 4 0a000001", "edge ALIAS cdn.example.net.", "caa TYPE257 \\# 3 000000", ""].join("\n"),
  );
  expect(await main(["import", "--zone-file", "example.com.zone", "--zone", "example.com", "--out", "a"], io())).toBe(0);
  expect(err).toEqual([]);
  expect(out.slice(0, 4)).toEqual([
    "Read 5 record(s) from example.com.zone: 2 to create in example.com, 3 not carried over, into a/index.ts",
    expect.stringMatching(/^ {2}not carried over: line 3: shop\.example\.com CNAM shops\.example\.net\. -- refused: type: "CNAM" is not a record type; did you mean CNAME\? /),
    expect.stringMatching(/^ {2}not carried over: line 5: edge\.example\.com ALIAS cdn\.example\.net\. -- refused: type: "ALIAS" is not a record type \(record types are IANA's DNS types, .*contract's recordTypes/),
    'not carried over: line 6: caa.example.com TYPE257 \\# 3 000000 -- refused: type: "TYPE257" is the RFC 3597 generic name of CAA; give the type\'s mnemonic, CAA'.replace(/^/, "  "),
  ]);
  const program = fs.readFileSync(path.join(dir, "a", "index.ts"), "utf8");
  expect(program).toContain('type: "TYPE65280"');
  expect(program).toContain('content: "\\\\# 4 0a000001"');
  expect(program).not.toMatch(/^ +type: "CNAM"/m);

  out = [];
  expect(await main(["import", "--zone-file", "example.com.zone", "--zone", "example.com", "--out", "b", "--record-types", "alias"], io())).toBe(0);
  expect(out[0]).toBe("Read 5 record(s) from example.com.zone: 3 to create in example.com, 2 not carried over, into b/index.ts");
  expect(fs.readFileSync(path.join(dir, "b", "index.ts"), "utf8")).toContain('type: "ALIAS"');

  out = [];
  expect(await main(["import", "--zone-file", "example.com.zone", "--zone", "example.com", "--record-types", "TYPE5"], io())).toBe(2);
  expect(err[0]).toMatch(/^reseller-pulumi: --record-types: must list type names .*got "TYPE5"$/);
});

test("a live record of a type check would refuse is listed, and the program leaves it out", async () => {
  const sandbox = await startSandbox({ port: 0, requestsPerMinute: 100_000, processingDelaySeconds: 0 });
  const client = new ResellerClient({ baseUrl: sandbox.url, apiKey: sandbox.credentials.key, apiSecret: sandbox.credentials.secret, requestsPerMinute: 100_000 });
  try {
    // What the first release let through: the service's list is open, so it holds the typo.
    await client.createRecord("demo-reseller.com", { type: "CNAM", name: "shop", content: "shops.example.net", ttl: 300 });
    const env = { RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret, RESELLER_BASE_URL: sandbox.url };
    expect(await main(["import", "--zone", "demo-reseller.com", "--out", "live", "--requests-per-minute", "6000"], io(env))).toBe(0);
    expect(err).toEqual([]);
    expect(out).toContainEqual(
      expect.stringMatching(/^ {2}not carried over: shop\.demo-reseller\.com CNAM shops\.example\.net -- type: "CNAM" is not a record type; did you mean CNAME\? .*; fix or delete it in the zone \(the program leaves it alone\)$/),
    );
    const program = fs.readFileSync(path.join(dir, "live", "index.ts"), "utf8");
    expect(program).not.toMatch(/^ +type: "CNAM"/m);
    expect(program).toContain('type: "MX"');
  } finally {
    await client.close();
    await sandbox.close();
  }
});

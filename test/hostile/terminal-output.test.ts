/**
 * A service that answers with terminal control sequences in what the CLI prints: a domain name that
 * retitles the window and clears the screen, a stage in red, a name turned around by a bidirectional
 * override. Through `reseller-pulumi expiring` and `reseller-pulumi import` (cli/main.ts) over real
 * HTTP, against the sandbox behind a rewriting proxy that puts them into the answers: every line the
 * commands print holds no such character, each shown as its `\uXXXX` escape instead.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { startRewritingProxy, type RewritingProxy } from "../support/rewriting-proxy";

const DAY_MS = 86_400_000;
/** What a terminal acts on or does not show: C0 but line feed and tab, DEL, C1, bidirectional marks and overrides. */
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;
const TITLE = "\x1b]0;owned\x07";
const CLEAR = "\x1b[2J\x1b[H";
const RED = "\x1b[31m";
const CSI_C1 = "\x9b2J";
const RLO = "\u202e";

let sandbox: SandboxHandle;
let proxy: RewritingProxy;
let dir: string;
let out: string[];
let err: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
  proxy = await startRewritingProxy(sandbox.url);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-terminal-"));
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  out = [];
  err = [];
  proxy.clear();
});

const io = (): CliIo => ({
  env: { RESELLER_BASE_URL: proxy.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret },
  out: (l) => out.push(l),
  err: (l) => err.push(l),
  cwd: dir,
  now: () => Math.floor(Date.now() / DAY_MS) * DAY_MS,
});
const fast = ["--requests-per-minute", "6000"];

/** The account's domain list with `entries` added to it. */
function listWith(entries: Record<string, unknown>[]): void {
  proxy.rewrite({
    method: "GET",
    path: /^\/api\/v1\/domains(\?|$)/,
    times: 100,
    lie: (answer) => {
      const b = JSON.parse(answer.body) as { data: { items: unknown[] } };
      return { body: JSON.stringify({ ...b, data: { ...b.data, items: [...b.data.items, ...entries] } }) };
    },
  });
}

const soon = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

test("expiring: a domain name and a stage holding ESC, BEL, C1 and a bidirectional override print escaped, each line free of them", async () => {
  listWith([{ domain: `${TITLE}${CLEAR}evil-${RLO}moc.example.com`, stage: `active${RED}`, expiry_date: soon(5) }]);
  expect(await main(["expiring", "--days", "60", ...fast], io())).toBe(1);
  expect(err).toEqual([]);
  expect(out.filter((l) => UNPRINTABLE.test(l))).toEqual([]);
  const line = out.find((l) => l.includes("evil-")) ?? "";
  expect(line).toContain("\\u001b]0;owned\\u0007\\u001b[2j\\u001b[hevil-\\u202emoc.example.com");
  expect(line).toContain("active\\u001b[31m");
});

test("expiring --json: still JSON of the same value, with no raw C1 or override character", async () => {
  listWith([{ domain: `c1-${CSI_C1}${RLO}.example.com`, stage: "active", expiry_date: soon(5) }]);
  expect(await main(["expiring", "--days", "60", "--json", ...fast], io())).toBe(1);
  const text = out.join("\n");
  expect(UNPRINTABLE.test(text)).toBe(false);
  const found = JSON.parse(text) as { domain: string }[];
  expect(found.map((f) => f.domain)).toContain(`c1-${CSI_C1.toLowerCase()}${RLO}.example.com`);
});

test("import: a domain the account no longer holds, named with control sequences, is listed escaped", async () => {
  const name = `${TITLE}gone-${CSI_C1}.example.com`;
  listWith([{ domain: name, stage: "cancelled", status: `x${CLEAR}` }]);
  // Its hosts, the one thing of a gone domain the estate reads besides the domain: none.
  proxy.rewrite({ method: "GET", path: /^\/api\/v1\/domains\/%1B[^/]*\/hosts/, times: 10, lie: () => ({ status: 200, body: JSON.stringify({ success: true, data: [] }) }) });
  proxy.rewrite({ method: "GET", path: /^\/api\/v1\/domains\/%1B[^/]*$/, times: 10, lie: () => ({ status: 200, body: JSON.stringify({ success: true, data: { domain: name, status: `x${CLEAR}`, stage: "cancelled" } }) }) });
  const code = await main(["import", "--all", "--out", "imported-all", ...fast], io());
  const printed = [...out, ...err];
  expect({ code, unprintable: printed.filter((l) => UNPRINTABLE.test(l)) }).toEqual({ code: 0, unprintable: [] });
  expect(printed.join("\n")).toContain("\\u001b]0;owned\\u0007gone-\\u009b2j.example.com (cancelled)");
});

test("import: an error message from the service with control sequences in it is printed escaped", async () => {
  proxy.rewrite({
    method: "GET",
    path: /^\/api\/v1\/domains\/demo-shop\.net$/,
    times: 10,
    lie: () => ({ status: 422, body: JSON.stringify({ success: false, error: { code: "invalid_request", message: `refused${CLEAR}${TITLE}` } }) }),
  });
  const code = await main(["import", "--domain", "demo-shop.net", "--out", "imported-one", ...fast], io());
  expect(code).not.toBe(0);
  expect(err.filter((l) => UNPRINTABLE.test(l))).toEqual([]);
  expect(err.join("\n")).toContain("\\u001b[2J\\u001b[H\\u001b]0;owned\\u0007");
});

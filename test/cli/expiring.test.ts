/**
 * `reseller-pulumi expiring` over real HTTP against the sandbox's seeded account, where
 * demo-shop.net expires in 45 days and lapsed-name.net expired 10 days ago: which domains fall in
 * the window, whether a stack (its `pulumi stack export`) renews each, the exit status a monitor
 * reads, and that the account is only read.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../cli/main";
import { firstDueDay } from "../../cli/expiring";
import { typeToken } from "../../resources/kinds";
import { startSandbox } from "../../sandbox/index";
import { PACKAGE_BIN, runPackageBin } from "../support/package-bin";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const DAY_MS = 86_400_000;

/**
 * A stack's state as `pulumi stack export` writes it: version 3, the deployment's resources (the
 * stack, the dynamic provider's resources with inputs and outputs), secrets as Pulumi encodes them.
 */
function stackExport(stack: string, domains: { name: string; domain: string; renewal?: unknown }[]): string {
  const project = "shop";
  const urn = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
  const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:AAAA:BBBB" };
  return JSON.stringify({
    version: 3,
    deployment: {
      manifest: { time: "2025-01-01T00:00:00Z", magic: "", version: "v3.150.0" },
      secrets_providers: { type: "passphrase", state: { salt: "v1:x" } },
      resources: [
        { urn: urn("pulumi:pulumi:Stack", `${project}-${stack}`), custom: false, type: "pulumi:pulumi:Stack" },
        ...domains.map((d) => {
          const inputs = { __provider: "exports.handler = ...", domain: d.domain, years: 1, contacts: secret, ...(d.renewal === undefined ? {} : { renewal: d.renewal }) };
          return {
            urn: urn(typeToken("Domain"), d.name),
            custom: true,
            id: d.domain,
            type: typeToken("Domain"),
            inputs,
            outputs: { ...inputs, stage: "active", expiryDate: "2099-01-01" },
            parent: urn("pulumi:pulumi:Stack", `${project}-${stack}`),
            retainOnDelete: true,
          };
        }),
      ],
    },
  });
}

describe("expiring against the sandbox", () => {
  let sandbox: Sandbox;
  let dir: string;
  let out: string[];
  let err: string[];
  let stdin = "";
  /** Midnight UTC of the day the sandbox seeded its account from: its domains are then 45 and -10 whole days away. */
  let today: number;
  const io = (): CliIo => ({
    env: { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: sandbox.credentials.secret },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd: dir,
    stdin: async () => stdin,
    now: () => today,
  });
  const fast = ["--requests-per-minute", "6000"];
  const state = (file: string, ...domains: Parameters<typeof stackExport>[1]): string => {
    fs.writeFileSync(path.join(dir, file), stackExport(file.replace(/\.json$/, ""), domains));
    return file;
  };
  const lineOf = (domain: string): string => out.find((l) => l.includes(` ${domain} `)) ?? "";

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, requestsPerMinute: 6000 });
    today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-expiring-"));
  });
  afterAll(async () => {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    out = [];
    err = [];
  });

  test("no stack given: the domains inside the window, soonest first, each with nothing to renew it: exit 1", async () => {
    const before = sandbox.operator.requests().length;
    expect(await main(["expiring", "--days", "60", ...fast], io())).toBe(1);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(/^2 domain\(s\) of the account expire within 60 days of \d{4}-\d{2}-\d{2}; 2 with nothing to renew them \(no stack state given/);
    expect(out.slice(1).map((l) => l.trim().split(/\s+/)[1])).toEqual(["lapsed-name.net", "demo-shop.net"]);
    expect(lineOf("demo-shop.net")).toMatch(/LAPSE\s+demo-shop\.net\s+\d{4}-\d{2}-\d{2}\s+45 day\(s\)\s+active\s+renewed by nothing: no stack given declares it/);
    expect(lineOf("lapsed-name.net")).toMatch(/-10 day\(s\)\s+expired/);
    // Read only: GETs, nothing that changes the account.
    const made = sandbox.operator.requests().slice(before);
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((r) => r.mutating)).toEqual([]);
  });

  test("a shorter window holds only what falls in it: renewed, exit 0", async () => {
    const legacy = state("short.json", { name: "old", domain: "lapsed-name.net", renewal: { years: 1 } });
    expect(await main(["expiring", "--days", "30", "--state", legacy, ...fast], io())).toBe(0);
    expect(out.slice(1).map((l) => l.trim().split(/\s+/)[1])).toEqual(["lapsed-name.net"]);
  });

  test("every domain inside the window renewed by a stack's Domain with a renewal policy: exit 0, naming the stack and when", async () => {
    const prod = state("prod.json", { name: "shop", domain: "demo-shop.net", renewal: { minDaysRemaining: 30, years: 1 } });
    const legacy = state("legacy.json", { name: "old", domain: "Lapsed-Name.net.", renewal: { years: 1 } });
    expect(await main(["expiring", "--days", "60", "--state", prod, "--state", legacy, ...fast], io())).toBe(0);
    expect(out[0]).toMatch(/2 domain\(s\) .* 0 with nothing to renew them \(2 stack state\(s\) given\)/);
    // Due once fewer than 30 days remain: 45 - 29 = 16 days from today.
    const due = new Date(today + 16 * DAY_MS).toISOString().slice(0, 10);
    expect(lineOf("demo-shop.net")).toMatch(/^  ok\s+demo-shop\.net /);
    expect(lineOf("demo-shop.net")).toContain(`renewed by stack shop/prod, Domain "shop": at the first pulumi up from ${due}`);
    expect(lineOf("lapsed-name.net")).toContain(`renewed by stack shop/legacy, Domain "old": due now, at the next pulumi up`);
  });

  test("a Domain without renewal, or whose policy comes due only after the expiry, renews nothing: exit 1 with the reason", async () => {
    const none = state("none.json", { name: "shop", domain: "demo-shop.net" }, { name: "old", domain: "lapsed-name.net", renewal: { minDaysRemaining: 30 } });
    expect(await main(["expiring", "--days", "60", "--state", none, ...fast], io())).toBe(1);
    expect(lineOf("demo-shop.net")).toMatch(/^  LAPSE\s+demo-shop\.net /);
    expect(lineOf("demo-shop.net")).toContain(`renewed by nothing: stack shop/none, Domain "shop" has no renewal policy`);
    expect(lineOf("lapsed-name.net")).toContain("ok ");

    out = [];
    const late = state("late.json", { name: "shop", domain: "demo-shop.net", renewal: { minDaysRemaining: 0 } }, { name: "old", domain: "lapsed-name.net", renewal: { years: 1 } });
    expect(await main(["expiring", "--days", "60", "--state", late, ...fast], io())).toBe(1);
    expect(lineOf("demo-shop.net")).toContain(`Domain "shop" renews only after the domain expires (minDaysRemaining 0)`);
  });

  test("--state - reads the export from stdin; --json gives one object per domain", async () => {
    stdin = stackExport("piped", [{ name: "shop", domain: "demo-shop.net", renewal: { minDaysRemaining: 50 } }]);
    expect(await main(["expiring", "--days", "60", "--state", "-", "--json", ...fast], io())).toBe(1);
    const found = JSON.parse(out.join("\n")) as { domain: string; renewed: boolean; daysLeft: number; stage: string; by: string }[];
    expect(found).toEqual([
      expect.objectContaining({ domain: "lapsed-name.net", renewed: false, daysLeft: -10, stage: "expired" }),
      expect.objectContaining({ domain: "demo-shop.net", renewed: true, daysLeft: 45, stage: "active", by: 'stack shop/piped, Domain "shop": due now, at the next pulumi up' }),
    ]);
  });

  test("the CI example's nightly job: `pulumi up --refresh` on schedule, then this command as written, which fails the job for a domain nothing renews", async () => {
    const workflow = fs.readFileSync(path.join(__dirname, "..", "..", "examples", "ci", "pulumi.yml"), "utf8");
    const steps = workflow.split(/\n      - /).slice(1);
    const renew = steps.find((st) => /\n\s+command: up\n/.test(st) && /\n\s+refresh: true\n/.test(st)) ?? "";
    expect(renew).toContain("if: github.event_name == 'schedule'");
    expect(workflow).toMatch(/schedule:\n    - cron: /);
    const check = steps.find((st) => st.includes("npx reseller-pulumi expiring")) ?? "";
    expect(check).toContain("if: github.event_name == 'schedule'");
    expect(check).toMatch(/pulumi stack export --stack "\$STACK" --file "\$RUNNER_TEMP\/state.json"/);
    // The command line as the job runs it, its variables filled in: the stack's export names only demo-shop.net.
    fs.mkdirSync(path.join(dir, "ci-tmp"), { recursive: true });
    fs.writeFileSync(path.join(dir, "ci-tmp", "state.json"), stackExport("prod", [{ name: "shop", domain: "demo-shop.net", renewal: { minDaysRemaining: 30 } }]));
    const env: Record<string, string> = { EXPIRY_WINDOW_DAYS: "45", RUNNER_TEMP: "ci-tmp" };
    const line = /npx reseller-pulumi (expiring .+)$/m.exec(check)![1];
    const argv = line.split(/\s+/).map((w) => w.replace(/^"(.*)"$/, "$1").replace(/\$(\w+)/g, (_m, v: string) => env[v] ?? `$${v}`));
    expect(await main([...argv, ...fast], io())).toBe(1);
    expect(out.slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual(["LAPSE lapsed-name.net", "ok demo-shop.net"]);
  });

  test("as a user runs it (the package's bin, a process of its own): columns line up on every row; a wrong secret names the settings this command reads", async () => {
    expect(fs.existsSync(PACKAGE_BIN) ? "built" : "dist/cli/main.js missing: run npm run build").toBe("built");
    const run = (secret: string, args: string[]) =>
      runPackageBin(["expiring", ...args, ...fast], dir, { RESELLER_BASE_URL: sandbox.url, RESELLER_API_KEY: sandbox.credentials.key, RESELLER_API_SECRET: secret });
    // One domain renewed (ok), one not (LAPSE): the two verdicts differ in width, and so do the days.
    const prod = state("mixed.json", { name: "shop", domain: "demo-shop.net", renewal: { minDaysRemaining: 30 } });
    const shown = await run(sandbox.credentials.secret, ["--days", "60", "--state", prod]);
    expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 1, stderr: "" });
    const rows = shown.stdout.trimEnd().split("\n").slice(1);
    expect(rows.map((l) => l.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual(["LAPSE lapsed-name.net", "ok demo-shop.net"]);
    // Where each column starts on a row: the verdict, the domain, the date, the days' end, the stage, "renewed by".
    const starts = (l: string): number[] => {
      const m = /^( +)(\S+)( +)(\S+)( +)(\d{4}-\d{2}-\d{2})( +)(-?\d+)( day\(s\) +)(\S+)( +)renewed by /.exec(l);
      if (!m) return [];
      const at: number[] = [];
      let i = 0;
      m.slice(1).forEach((part, k) => {
        if ([1, 3, 5, 9, 11].includes(k + 1)) at.push(i + part.length); // after each gap: a column's start
        if (k + 1 === 8) at.push(i + part.length); // the days' last digit: right-aligned
        i += part.length;
      });
      return at;
    };
    expect(rows.map(starts)).toEqual([starts(rows[0]), starts(rows[0])]);
    expect(starts(rows[0])).toHaveLength(6);

    const refused = await run("not-the-secret", ["--days", "60"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^reseller-pulumi: GET \S+ failed with 401 unauthorized: the API key or secret is not valid \(request id [^)]+\)\. Check the API key and secret \(RESELLER_API_KEY or --key, and RESELLER_API_SECRET\); create new credentials in the reseller portal if they were rotated or revoked\.\n$/);
    expect(refused.stderr).not.toContain("reseller:api");
    expect(refused.stderr).not.toContain("not-the-secret");
    expect(refused.stdout).toBe("");
  });

  test("a check that cannot run exits 2, naming what is wrong: the window, a state file, the credentials", async () => {
    expect(await main(["expiring", ...fast], io())).toBe(2);
    expect(err[0]).toBe("reseller-pulumi: --days N is required: the window, in whole days from today");
    for (const days of ["-1", "7.5", "ten", "3651"]) {
      err = [];
      expect(await main(["expiring", `--days=${days}`, ...fast], io())).toBe(2);
      expect(err[0]).toBe(`reseller-pulumi: --days must be a whole number of days from 0 to 3650, not "${days}"`);
    }
    err = [];
    expect(await main(["expiring", "--days", "60", "--state", "missing.json", ...fast], io())).toBe(2);
    expect(err[0]).toBe("reseller-pulumi: cannot read the stack state missing.json: ENOENT");
    fs.writeFileSync(path.join(dir, "not-state.json"), JSON.stringify({ hello: 1 }));
    err = [];
    expect(await main(["expiring", "--days", "60", "--state", "not-state.json", ...fast], io())).toBe(2);
    expect(err[0]).toBe("reseller-pulumi: not-state.json holds no stack state (no deployment.resources); give the output of `pulumi stack export`");
    err = [];
    const wrong = { ...io(), env: { ...io().env, RESELLER_API_SECRET: "not-the-secret" } };
    expect(await main(["expiring", "--days", "60", ...fast], wrong)).toBe(2);
    expect(err.join("\n")).not.toContain("not-the-secret");
    expect(out).toEqual([]);
  });
});

test("firstDueDay: the first midnight from which Domain's own rule asks for the renewal, never at or after the expiry", () => {
  const now = Date.parse("2025-03-01T15:00:00Z");
  expect(new Date(firstDueDay({ minDaysRemaining: 30 }, "2025-04-15", now)!).toISOString()).toBe("2025-03-17T00:00:00.000Z");
  expect(firstDueDay({ minDaysRemaining: 60 }, "2025-04-15", now)).toBe(now);
  expect(firstDueDay({ minDaysRemaining: 0 }, "2025-04-15", now)).toBeUndefined();
  expect(firstDueDay({ minDaysRemaining: 30, notBefore: "2025-04-15" }, "2025-04-15", now)).toBeUndefined();
  expect(new Date(firstDueDay({ minDaysRemaining: 30, notBefore: "2025-04-01" }, "2025-04-15", now)!).toISOString()).toBe("2025-04-01T00:00:00.000Z");
  expect(firstDueDay({}, "2025-02-20", now)).toBe(now); // expired: due now (default 30 days)
});

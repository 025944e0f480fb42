import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo, type ClientOptions } from "../../cli/main";
import type { EstateReader } from "../../cli/estate";
import { ResellerApiError } from "../../api/errors";
import type { DnsRecord, DomainInfo } from "../../api/views";

const SECRET = "s3cr3t-value-never-printed";

const info: DomainInfo = {
  domain: "example.com",
  status: "active",
  stage: "active",
  nameservers: ["NS2.dns.sandbox.test.", "ns1.dns.sandbox.test"],
  locked: true,
  privacy: { enabled: true, status: "active" },
  protection: { enabled: false },
  dns: { hosted: true, zone_status: "active" },
};

const liveRecords: DnsRecord[] = [
  { id: "1", type: "A", name: "@", content: "192.0.2.10", ttl: 300 },
  { id: "2", type: "mx", name: "@", content: "Mail.Example.com.", ttl: 3600, priority: 10 },
  { id: "3", type: "NS", name: "@", content: "ns1.dns.sandbox.test", ttl: 86400 },
  { id: "4", type: "NS", name: "lab", content: "ns.lab-provider.test", ttl: 3600 },
  { id: "5", type: "TXT", name: "@", content: '"v=spf1 -all"', ttl: 3600 },
];

/** A reader that answers from fixed data and records what was asked. */
function fakeReader(calls: string[], fail?: Error): (o: ClientOptions) => EstateReader {
  return (o) => {
    calls.push(`client ${o.baseUrl} ${o.apiKey}`);
    const step = async <T>(name: string, value: T): Promise<T> => {
      calls.push(name);
      if (fail) throw fail;
      return value;
    };
    return {
      listDomains: () => step("listDomains", [{ domain: "example.com" }]),
      getDomain: (d) => step(`getDomain ${d}`, info),
      listHosts: (d) => step(`listHosts ${d}`, [{ hostname: "NS1.example.com", ipv4: ["192.0.2.53"], ipv6: ["2001:DB8:0:0::53"] }]),
      listZones: () =>
        step("listZones", [{ domain: "example.com", status: "active", nameservers: [], delegated: true, records_count: 5 }]),
      listRecords: (d) => step(`listRecords ${d}`, liveRecords),
    };
  };
}

describe("reseller-pulumi import (command line)", () => {
  let dir: string;
  let out: string[];
  let err: string[];
  let calls: string[];
  const io = (extra: Partial<CliIo> = {}): CliIo => ({
    env: { RESELLER_API_KEY: "key-1", RESELLER_API_SECRET: SECRET, RESELLER_BASE_URL: "http://127.0.0.1:9" },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd: dir,
    client: fakeReader(calls),
    ...extra,
  });
  const everything = (): string =>
    [...out, ...err, ...fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"))].join("\n");

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-test-"));
    out = [];
    err = [];
    calls = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("--zone writes the project, in canonical form, and prints the next steps", async () => {
    const code = await main(["import", "--zone", "Example.COM", "--out", "zone-dir"], io());
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(calls).toEqual(["client http://127.0.0.1:9 key-1", "listRecords example.com"]);
    expect(fs.readdirSync(path.join(dir, "zone-dir")).sort()).toEqual(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]);
    const program = fs.readFileSync(path.join(dir, "zone-dir", "index.ts"), "utf8");
    // Canonical: type upper case, target without trailing dot, TXT unquoted; apex NS left to the service, delegation kept.
    expect(program).toContain('type: "MX",\n  name: "@",\n  content: "mail.example.com"');
    expect(program).toContain('content: "v=spf1 -all"');
    expect(program).not.toContain("ns1.dns.sandbox.test");
    expect(program).toContain('content: "ns.lab-provider.test"');
    expect(program.match(/new reseller\.DnsRecord\(/g)).toHaveLength(4);
    expect(out[0]).toBe("Imported 0 domain(s), 1 zone(s), 4 record(s) into zone-dir/index.ts");
    expect(out.join("\n")).toContain("cd zone-dir\nnpm install");
    expect(out.join("\n")).toContain("pulumi config set --secret reseller:apiSecret     # asks for it, not echoed");
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "zone-dir", "package.json"), "utf8"));
    expect(pkg.dependencies["reseller-pulumi"]).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(everything()).not.toContain(SECRET);
  });

  test("--domain reads the domain, its hosts and its zone; the same import twice gives the same files", async () => {
    fs.mkdirSync(path.join(dir, "pkg")); // --dependency file:../pkg, read from imported/
    expect(await main(["import", "--domain", "example.com", "--dependency", "file:../pkg"], io())).toBe(0);
    expect(calls).toEqual([
      "client http://127.0.0.1:9 key-1",
      "listZones",
      "getDomain example.com",
      "listHosts example.com",
      "listRecords example.com",
    ]);
    const read = (): Record<string, string> =>
      Object.fromEntries(fs.readdirSync(path.join(dir, "imported")).map((f) => [f, fs.readFileSync(path.join(dir, "imported", f), "utf8")]));
    const first = read();
    expect(first["index.ts"]).toContain('new reseller.Domain("example-com"');
    expect(first["index.ts"]).toContain('nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"]');
    expect(first["index.ts"]).toContain('hostname: "ns1.example.com"');
    expect(first["index.ts"]).toContain('ipv6: ["2001:db8::53"]');
    expect(first["index.ts"]).toContain('new reseller.PrivacyAddon("example-com-privacy"');
    expect(first["index.ts"]).not.toContain("Protection(");
    expect(JSON.parse(first["package.json"]).dependencies["reseller-pulumi"]).toBe("file:../pkg");
    expect(await main(["import", "--domain", "example.com", "--dependency", "file:../pkg"], io())).toBe(0);
    expect(read()).toEqual(first);
  });

  test("--contacts config makes the program read contacts from secret config and says how to set them", async () => {
    expect(await main(["import", "--all", "--contacts", "config"], io())).toBe(0);
    const program = fs.readFileSync(path.join(dir, "imported", "index.ts"), "utf8");
    expect(program).toContain('requireSecretObject<reseller.DomainContactsArgs>("contacts")');
    expect(out.join("\n")).toContain("pulumi config set --secret --path contacts.registrant.name");
  });

  test("usage errors exit 2 with a clear message and the usage text", async () => {
    const cases: [string[], Partial<CliIo>, RegExp][] = [
      [["import", "--out", "x"], {}, /choose exactly one of --zone DOMAIN, --domain DOMAIN or --all/],
      [["import", "--zone", "a.com", "--all"], {}, /choose exactly one/],
      [["import", "--zone", "localhost"], {}, /"localhost" is not a domain name/],
      [["import", "--all", "--secret", SECRET], {}, /Unknown option '--secret'/],
      [["import", "--all", "--contacts", "inline"], {}, /--contacts must be omit or config/],
      [["import", "--all"], { env: { RESELLER_API_KEY: "k", RESELLER_BASE_URL: "http://x" } }, /no API secret: set RESELLER_API_SECRET/],
      [["import", "--all"], { env: { RESELLER_API_SECRET: SECRET, RESELLER_BASE_URL: "http://x" } }, /no API key: pass --key or set RESELLER_API_KEY/],
      [["import", "--all"], { env: { RESELLER_API_KEY: "k", RESELLER_API_SECRET: SECRET } }, /no service URL/],
      [["import", "--all", "--requests-per-minute", "0"], {}, /--requests-per-minute must be a positive number, not "0"/],
      [["import", "--all", "--base-url", "http://api.example.com"], {}, /--base-url \(or RESELLER_BASE_URL\): "http:\/\/api.example.com" uses plain http to a host that is not this machine/],
      [["import", "--all"], { env: { RESELLER_API_KEY: "k", RESELLER_API_SECRET: `${SECRET}\r\n`, RESELLER_BASE_URL: "https://api.example.com" } }, /RESELLER_API_SECRET: contains a line break \(CR or LF\)/],
      // The generated package.json must install as written: a file: path is read from --out, as npm reads it.
      [["import", "--all", "--dependency", "file:reseller-pulumi"], {}, /--dependency: "file:reseller-pulumi" names nothing that exists: a file: path is read from the generated directory \(--out\)/],
      [["import", "--all", "--dependency", "my copy"], {}, /--dependency: "my copy" is not a spec npm installs/],
      [["frobnicate"], {}, /unknown command "frobnicate"/],
    ];
    for (const [argv, extra, message] of cases) {
      err = [];
      expect(await main(argv, io(extra))).toBe(2);
      expect(err[0]).toMatch(message);
      expect(err.join("\n")).toContain("Usage: reseller-pulumi import");
      expect(err.join("\n")).not.toContain(SECRET);
    }
    expect(calls).toEqual([]);
    expect(fs.existsSync(path.join(dir, "imported"))).toBe(false);
  });

  test("an API failure exits 1, writes nothing, and the message never shows the secret", async () => {
    const failing = fakeReader(calls, new Error(`401 unauthorized for key key-1 (secret ${SECRET})`));
    expect(await main(["import", "--all"], io({ client: failing }))).toBe(1);
    expect(err[0]).toBe("reseller-pulumi: 401 unauthorized for key key-1 (secret [secret])");
    expect(fs.existsSync(path.join(dir, "imported"))).toBe(false);
  });

  test("a name the account does not have: a clear message, exit 1", async () => {
    const notFound = ResellerApiError.from(404, { error: { code: "not_found", message: "no such zone" } }, { method: "GET", template: "/dns/zones/{domain}/records", path: "/dns/zones/other.com/records" });
    expect(await main(["import", "--zone", "other.com"], io({ client: fakeReader(calls, notFound) }))).toBe(1);
    expect(err[0]).toBe(
      "reseller-pulumi: no DNS zone other.com is hosted in this account (--domain imports a domain without a hosted zone). Check the name; --all imports everything the account has.",
    );
    err = [];
    expect(await main(["import", "--domain", "other.com"], io({ client: fakeReader(calls, notFound) }))).toBe(1);
    expect(err[0]).toBe("reseller-pulumi: there is no domain other.com in this account. Check the name; --all imports everything the account has.");
  });

  test("domains the account no longer holds: skipped and named by --all, refused by --domain", async () => {
    const cancelled = (o: ClientOptions): EstateReader => {
      const reader = fakeReader(calls)(o);
      return {
        ...reader,
        listDomains: async () => [{ domain: "example.com" }, { domain: "gone.net" }],
        getDomain: async (d) => (d === "gone.net" ? { ...info, domain: d, stage: "cancelled" } : info),
      };
    };
    expect(await main(["import", "--all"], io({ client: cancelled }))).toBe(0);
    expect(out[0]).toBe("Skipped 1 domain(s) the account no longer holds: gone.net (cancelled)");
    expect(out[1]).toMatch(/^Imported 1 domain\(s\), 1 zone\(s\)/);
    expect(fs.readFileSync(path.join(dir, "imported", "index.ts"), "utf8")).not.toContain("gone.net");
    expect(await main(["import", "--domain", "gone.net", "--out", "gone"], io({ client: cancelled }))).toBe(1);
    expect(err[0]).toBe("reseller-pulumi: gone.net is in stage cancelled: it no longer belongs to this account, so there is nothing to adopt");
    expect(fs.existsSync(path.join(dir, "gone"))).toBe(false);
  });

  test("--zone-file: $INCLUDE relative to the including file; every record not carried or changed listed by file and line; the text says the up creates; UTF-8", async () => {
    fs.mkdirSync(path.join(dir, "zones", "parts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "zones", "example.com.zone"), "$TTL 30\nwww A 192.0.2.1\n$INCLUDE parts/hosts.inc lab\n");
    // Relative to parts/, where this file is, not to the working directory or the zone file's directory.
    fs.writeFileSync(path.join(dir, "zones", "parts", "hosts.inc"), "box A 192.0.2.2\nbox A 192.0.2.2\n$INCLUDE more.inc\n");
    fs.writeFileSync(path.join(dir, "zones", "parts", "more.inc"), "deep TXT \"a  b\" \"c\"\n");
    expect(await main(["import", "--zone-file", "zones/example.com.zone", "--zone", "example.com", "--out", "mig"], io())).toBe(0);
    expect(err).toEqual([]);
    expect(out.slice(0, 5)).toEqual([
      "Read 4 record(s) from zones/example.com.zone: 3 to create in example.com, 1 not carried over, into mig/index.ts",
      "  not carried over: parts/hosts.inc line 2: box.lab A 192.0.2.2 -- identical to the record on parts/hosts.inc line 1: one record (RFC 2181 §5), folded into it",
      "  changed: line 2: www A -- ttl 30 is outside the service's 60 to 86400 seconds; taken as 60",
      "  changed: parts/hosts.inc line 1: box.lab A -- ttl 30 is outside the service's 60 to 86400 seconds; taken as 60",
      "  changed: parts/more.inc line 1: deep.lab TXT -- ttl 30 is outside the service's 60 to 86400 seconds; taken as 60",
    ]);
    const text = out.join("\n");
    expect(text).toContain("pulumi preview                  # expect 4 creates: the zone and 3 record(s)");
    expect(text).toContain("pulumi up                       # creates the zone, waits for the delegation, creates the records");
    expect(text).not.toContain("adopt");
    const program = fs.readFileSync(path.join(dir, "mig", "index.ts"), "utf8");
    const readme = fs.readFileSync(path.join(dir, "mig", "README.md"), "utf8");
    expect(program).toContain("//   parts/hosts.inc line 2: box.lab A 192.0.2.2 -- identical to the record on parts/hosts.inc line 1: one record (RFC 2181 §5), folded into it");
    expect(program).toContain('content: "\\"a  b\\" \\"c\\""');
    expect(readme).toContain("pulumi up                       # creates the zone, waits for the delegation, creates the records");
    expect(readme).not.toContain("adopts");
    for (const f of [program, readme]) expect(f).not.toContain("?");
    out = [];
    expect(await main(["import", "--zone-file", "zones/example.com.zone", "--zone", "example.com", "--out", "whole", "--whole-zone"], io())).toBe(0);
    expect(out.join("\n")).toContain("pulumi preview                  # expect 2 creates: the zone and one DnsZoneRecords of 3 record(s)");
    expect(fs.readFileSync(path.join(dir, "whole", "README.md"), "utf8")).toContain("# expect 2 creates: the zone and one DnsZoneRecords of 3 record(s)");
  });

  test("--help prints the usage and exits 0; no command exits 2", async () => {
    expect(await main(["import", "--help"], io())).toBe(0);
    expect(out.join("\n")).toContain("--zone DOMAIN");
    expect(out.join("\n")).toContain("RESELLER_API_SECRET only");
    out = [];
    expect(await main([], io())).toBe(2);
    expect(out.join("\n")).toContain("Usage: reseller-pulumi import");
  });
});

import * as ts from "typescript";
import {
  commentText,
  domainBaseNames,
  generateProgram,
  generateProject,
  RECORD_TABLE_FROM,
  recordResourceName,
  slug,
} from "../../cli/codegen";
import type { Estate, EstateRecord } from "../../cli/estate";

const records: EstateRecord[] = [
  { type: "A", name: "@", content: "192.0.2.10", ttl: 300 },
  { type: "MX", name: "@", content: "mail1.example.com", ttl: 3600, priority: 10 },
  { type: "MX", name: "@", content: "mail2.example.com", ttl: 3600, priority: 20 },
  { type: "TXT", name: "@", content: 'v=spf1 include:"odd\\quoted" -all\n${x} `tick` */ //', ttl: 3600 },
  { type: "SRV", name: "_sip._tcp", content: "sip.example.com", ttl: 600, priority: 5, extra: { weight: 10, port: 5060 } },
  { type: "CAA", name: "@", content: "letsencrypt.org", ttl: 3600, extra: { tag: "issue", flag: 0 } },
];

const estate: Estate = {
  domains: [
    {
      domain: "example.com",
      stage: "active",
      nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
      locked: true,
      privacy: true,
      protection: false,
      hosts: [{ hostname: "ns1.example.com", ipv4: ["192.0.2.53"], ipv6: [] }],
    },
    { domain: "gone.net", stage: "cancelled", nameservers: [], locked: null, privacy: false, protection: false, hosts: [] },
  ],
  zones: [{ domain: "example.com", records }],
};

type Made = { cls: string; name: string; args: Record<string, unknown>; opts?: Record<string, unknown> };

/**
 * Transpiles and loads a generated program against a recording stand-in for the package: what the
 * module declared as it loaded, and what it exports (the entry point the Pulumi runner calls).
 */
function loadGenerated(program: string, config: Record<string, unknown> = {}): { made: Made[]; entry: unknown } {
  const out = ts.transpileModule(program, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  expect(out.diagnostics ?? []).toEqual([]);
  const made: Made[] = [];
  const fake = new Proxy(
    {},
    {
      get: (_t, cls: string) =>
        function (this: unknown, name: string, args: Record<string, unknown>, opts?: Record<string, unknown>) {
          made.push({ cls, name, args, ...(opts ? { opts } : {}) });
          return { resource: name };
        },
    },
  );
  const fakePulumi = {
    Config: class {
      requireSecretObject(key: string) {
        return { secretConfig: key, value: config[key] };
      }
    },
  };
  const module = { exports: {} as unknown };
  new Function("require", "exports", "module", out.outputText)(
    (m: string) => (m === "reseller-pulumi" ? fake : m === "@pulumi/pulumi" ? fakePulumi : undefined),
    module.exports,
    module,
  );
  return { made, entry: module.exports };
}

/** A generated program that declares everything as it loads: what it declared. */
function runGenerated(program: string, config: Record<string, unknown> = {}): Made[] {
  const { made, entry } = loadGenerated(program, config);
  expect(typeof entry).not.toBe("function");
  return made;
}

describe("import code generation", () => {
  test("slugs are Pulumi-safe", () => {
    expect(slug("_sip._tcp.Example.COM")).toBe("sip-tcp-example-com");
    expect(slug("---")).toBe("x");
  });

  test("record names read well, are stable and distinguish records of one name and type", () => {
    const a = recordResourceName("example.com", records[1]);
    const b = recordResourceName("example.com", records[2]);
    expect(a).toMatch(/^example-com-mx-apex-10-mail1-[0-9a-f]{6}$/);
    expect(b).toMatch(/^example-com-mx-apex-20-mail2-[0-9a-f]{6}$/);
    expect(recordResourceName("example.com", { ...records[1] })).toBe(a);
    // The hash covers the identity, not the TTL: a TTL change keeps the name.
    expect(recordResourceName("example.com", { ...records[1], ttl: 60 })).toBe(a);
    expect(recordResourceName("example.com", { ...records[4] })).toMatch(/^example-com-srv-sip-tcp-5-sip-[0-9a-f]{6}$/);
    // Extra's key order does not matter.
    expect(recordResourceName("example.com", { ...records[5], extra: { flag: 0, tag: "issue" } })).toBe(
      recordResourceName("example.com", records[5]),
    );
  });

  test("output does not depend on the order the API listed things in", () => {
    const shuffled: Estate = {
      domains: [...estate.domains].reverse().map((d) => ({ ...d, hosts: [...d.hosts].reverse() })),
      zones: [{ domain: "example.com", records: [records[3], records[0], records[5], records[2], records[4], records[1]] }],
    };
    expect(generateProgram(shuffled)).toBe(generateProgram(estate));
  });

  test("every resource adopts, domains no longer held are skipped, contacts are absent", () => {
    const program = generateProgram(estate);
    const made = runGenerated(program);
    expect(made.map((m) => m.cls)).toEqual([
      "Domain",
      "ChildHost",
      "PrivacyAddon",
      "DnsZone",
      ...Array(records.length).fill("DnsRecord"),
    ]);
    expect(made.every((m) => m.args.adopt === true)).toBe(true);
    expect(program).not.toContain("gone.net");
    expect(program).not.toMatch(/contacts\s*:/);
    expect(made[0]).toEqual({
      cls: "Domain",
      name: "example-com",
      args: { domain: "example.com", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], locked: true, adopt: true },
      opts: { protect: true },
    });
    expect(made[1]).toEqual({
      cls: "ChildHost",
      name: "example-com-host-ns1-example-com",
      args: { domain: "example.com", hostname: "ns1.example.com", ipv4: ["192.0.2.53"], ipv6: [], adopt: true },
      opts: { protect: true },
    });
    expect(made[3]).toEqual({ cls: "DnsZone", name: "example-com-zone", args: { domain: "example.com", adopt: true }, opts: { protect: true } });
    const names = made.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test("strings with quotes, backslashes, newlines and template syntax survive as the same value", () => {
    const made = runGenerated(generateProgram(estate));
    const txt = made.find((m) => m.args.type === "TXT");
    expect(txt?.args.content).toBe(records[3].content);
    const srv = made.find((m) => m.args.type === "SRV");
    expect(srv?.args).toEqual({
      zone: "example.com",
      type: "SRV",
      name: "_sip._tcp",
      content: "sip.example.com",
      ttl: 600,
      priority: 5,
      extra: { port: 5060, weight: 10 },
      adopt: true,
    });
    const a = made.find((m) => m.args.type === "A");
    expect(a?.args).not.toHaveProperty("priority");
    expect(a?.args).not.toHaveProperty("extra");
  });

  test("a hostile name cannot break out of a comment", () => {
    expect(commentText("evil.com\nprocess.exit(1)")).toBe("evil.com?process.exit(1)");
    const hostile: Estate = {
      domains: [{ domain: "evil.com\nthrow new Error('x')", stage: "active\n", nameservers: [], locked: null, privacy: false, protection: false, hosts: [] }],
      zones: [],
    };
    const made = runGenerated(generateProgram(hostile));
    expect(made).toHaveLength(1);
    expect(made[0].args.domain).toBe("evil.com\nthrow new Error('x')");
  });

  test("exact duplicate records get numbered names; colliding domain slugs both get hashes", () => {
    const dup: Estate = { domains: [], zones: [{ domain: "example.com", records: [records[0], { ...records[0] }] }] };
    const names = runGenerated(generateProgram(dup)).map((m) => m.name);
    expect(names[2]).toBe(`${names[1]}-2`);
    const bases = domainBaseNames(["a-b.com", "a.b.com", "c.com"]);
    expect(bases.get("c.com")).toBe("c-com");
    expect(bases.get("a-b.com")).toMatch(/^a-b-com-[0-9a-f]{6}$/);
    expect(bases.get("a.b.com")).toMatch(/^a-b-com-[0-9a-f]{6}$/);
    expect(bases.get("a-b.com")).not.toBe(bases.get("a.b.com"));
    // Independent of order.
    expect(domainBaseNames(["a.b.com", "c.com", "a-b.com"])).toEqual(bases);
  });

  test("contacts from config: read as a secret object, never written", () => {
    const program = generateProgram(estate, { contacts: "config" });
    const made = runGenerated(program, { contacts: { registrant: { name: "R" } } });
    expect(made[0].args.contacts).toEqual({ secretConfig: "contacts", value: { registrant: { name: "R" } } });
    expect(program).toContain('requireSecretObject<reseller.DomainContactsArgs>("contacts")');
  });

  describe("zones of RECORD_TABLE_FROM records or more", () => {
    /** `n` records of every shape in `records` (priority, extra, quoting), with distinct names. */
    const many = (n: number): EstateRecord[] => Array.from({ length: n }, (_, i) => ({ ...records[i % records.length], name: `h${i}` }));
    const zoneOf = (n: number): Estate => ({ domains: [], zones: [{ domain: "example.com", records: many(n) }] });

    test("come as a table whose loop declares what the straight form declares, giving the runner a turn every 100 records", async () => {
      const program = generateProgram(zoneOf(RECORD_TABLE_FROM));
      expect(program).toContain("const records_example_com: RecordTable = {\n");
      expect(program.match(/new reseller\.DnsRecord\(/g)).toHaveLength(1);
      const { made, entry } = loadGenerated(program);
      // As the module loads: the zone only; the records come when the runner calls the entry point.
      expect(made.map((m) => m.cls)).toEqual(["DnsZone"]);
      expect(typeof entry).toBe("function");
      let declaredAtFirstTurn = -1;
      setImmediate(() => (declaredAtFirstTurn = made.length - 1));
      await (entry as () => Promise<void>)();
      expect(declaredAtFirstTurn).toBe(100);

      // The same records, names and arguments as a zone one record smaller gets in the straight form.
      const straight = generateProgram({ domains: [], zones: [{ domain: "example.com", records: many(RECORD_TABLE_FROM).slice(0, -1) }] });
      expect(straight).not.toContain("RecordTable");
      const straightMade = runGenerated(straight);
      const tabled = made.filter((m) => m.cls === "DnsRecord");
      expect(tabled).toHaveLength(RECORD_TABLE_FROM);
      const byName = new Map(tabled.map((m) => [m.name, m]));
      for (const m of straightMade.filter((x) => x.cls === "DnsRecord")) {
        expect(byName.get(m.name)?.args).toEqual(m.args);
        expect(m.opts).toEqual({ protect: true, dependsOn: [{ resource: "example-com-zone" }] });
        expect(byName.get(m.name)?.opts).toEqual(m.opts);
      }
      const txt = tabled.find((m) => m.args.type === "TXT");
      expect(txt?.args).toMatchObject({ content: records[3].content, adopt: true, zone: "example.com" });
    });

    test("a DS depends on the NS records of its delegation, in the straight and the table form (RFC 4035 §2.4)", async () => {
      const delegation: EstateRecord[] = [
        { type: "DS", name: "lab", content: `1 13 2 ${"ab".repeat(32)}`, ttl: 3600 },
        { type: "NS", name: "lab", content: "ns1.lab-host.net", ttl: 3600 },
        { type: "NS", name: "lab", content: "ns2.lab-host.net", ttl: 3600 },
        { type: "NS", name: "other", content: "ns1.other-host.net", ttl: 3600 },
      ];
      const withDs = (n: number): Estate => ({ domains: [], zones: [{ domain: "example.com", records: [...many(n), ...delegation] }] });
      const straight = runGenerated(generateProgram(withDs(10)));
      const loaded = loadGenerated(generateProgram(withDs(RECORD_TABLE_FROM)));
      await (loaded.entry as () => Promise<void>)();
      for (const made of [straight, loaded.made]) {
        const ns = made.filter((m) => m.args.type === "NS" && m.args.name === "lab").map((m) => ({ resource: m.name }));
        const ds = made.filter((m) => m.args.type === "DS");
        expect(ns).toHaveLength(2);
        expect(ds).toHaveLength(1);
        expect(ds[0].opts).toEqual({ protect: true, dependsOn: [{ resource: "example-com-zone" }, ...ns] });
        expect(made.find((m) => m.args.name === "other")?.opts).toEqual({ protect: true, dependsOn: [{ resource: "example-com-zone" }] });
      }
    });

    test("a zone-file migration's table creates its records (no adopt)", async () => {
      const m = { file: "example.com.zone", skipped: [], notes: [] };
      const { made, entry } = loadGenerated(generateProgram(zoneOf(RECORD_TABLE_FROM), { migration: m }));
      await (entry as () => Promise<void>)();
      const tabled = made.filter((x) => x.cls === "DnsRecord");
      expect(tabled).toHaveLength(RECORD_TABLE_FROM);
      for (const r of tabled) expect(r.args).not.toHaveProperty("adopt");
      // Created by the stack, so not protected: what it made, it may delete.
      for (const r of made) expect(r.opts ?? {}).not.toHaveProperty("protect");
      expect(made[0]).toMatchObject({ cls: "DnsZone", args: { domain: "example.com", waitForDelegation: true } });
    });
  });

  test("the project has what `pulumi up` needs", () => {
    const files = generateProject(estate, { name: "Example.com zone", dependency: "^0.1.0" });
    expect(files.map((f) => f.path).sort()).toEqual(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]);
    const pkg = JSON.parse(files.find((f) => f.path === "package.json")!.content);
    expect(pkg.dependencies["reseller-pulumi"]).toBe("^0.1.0");
    expect(pkg.dependencies["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(files.find((f) => f.path === "Pulumi.yaml")!.content).toMatch(/^name: example-com-zone\n/);
    const readme = files.find((f) => f.path === "README.md")!.content;
    expect(readme).toContain("pulumi config set --secret reseller:apiSecret     # asks for it, not echoed");
    expect(readme).toContain("Generated by `reseller-pulumi import`: 1 domain, 1 zone, 6 records.");
    expect(readme).not.toContain("cd .");
    const zoneOnly = generateProject({ domains: [], zones: estate.zones }, { name: "z", dependency: "^0.1.0", contacts: "config" });
    const zoneReadme = zoneOnly.find((f) => f.path === "README.md")!.content;
    expect(zoneReadme).toContain(": 1 zone, 6 records.");
    expect(zoneReadme).not.toContain("## Contacts");
    expect(zoneOnly.find((f) => f.path === "index.ts")!.content).not.toContain("requireSecretObject");
    const withContacts = generateProject(estate, { name: "x", dependency: "file:..", contacts: "config" });
    const contactsReadme = withContacts.find((f) => f.path === "README.md")!.content;
    expect(contactsReadme).toContain("pulumi config set --secret --path contacts.registrant.email");
    // The Domain's own (camelCase) field names, which its check reads without a warning; never the service's.
    for (const field of ["addressLine1", "postalCode"]) expect(contactsReadme).toContain(`pulumi config set --secret --path contacts.registrant.${field} '`);
    expect(contactsReadme).toContain("name, email, phone, addressLine1, city, country, organization, addressLine2, state, postalCode");
    expect(contactsReadme).not.toMatch(/address_line|postal_code/);
  });
});

test("every adopted resource is declared with protect: true, or protect: false with --protect false, in every form; the README and the import command say which", async () => {
  const many = (n: number): EstateRecord[] => Array.from({ length: n }, (_, i) => ({ ...records[i % records.length], name: `h${i}` }));
  const zoneOf = (n: number): Estate => ({ domains: estate.domains, zones: [{ domain: "example.com", records: many(n) }] });
  for (const protect of [undefined, true, false]) {
    const expected = protect ?? true;
    const straight = runGenerated(generateProgram(zoneOf(3), { protect }));
    const whole = runGenerated(generateProgram(zoneOf(3), { protect, wholeZone: true }));
    const loaded = loadGenerated(generateProgram(zoneOf(RECORD_TABLE_FROM), { protect }));
    await (loaded.entry as () => Promise<void>)();
    for (const made of [straight, whole, loaded.made]) {
      expect(made.length).toBeGreaterThan(3);
      expect(made.filter((m) => m.opts?.protect !== expected).map((m) => m.name)).toEqual([]);
    }
    const files = generateProject(zoneOf(3), { name: "x", dependency: "^0.1.0", protect, imports: { stack: "dev", count: 9, protect: expected } });
    const readme = files.find((f) => f.path === "README.md")!.content;
    expect(readme).toContain(expected ? "## Protected from destroy" : "## Not protected from destroy");
    expect(readme).toContain(`pulumi import --file import.json --protect=${expected} --generate-code=false --yes`);
    expect(readme).toContain(expected ? "set `protect: false` in its options" : "set `protect: true` in\ntheir options");
    expect(files.find((f) => f.path === "index.ts")!.content).toContain(`// \`protect: ${expected}\``);
  }
});

test("import writes a program whose adopt: true stays correct after edits, and says how to rename", () => {
  const text = generateProgram({ domains: [], zones: [{ domain: "example.com", status: "active", records: [] }] } as never);
  expect(text).toMatch(/`adopt: true` may stay:\n\/\/ a record, zone or child host changed into a new one is created when there is nothing\n\/\/ identical to take; a Domain, PrivacyAddon or Protection is never bought while it is set\./);
  expect(text).toMatch(/add its old name with `aliases`/);
});

import * as ts from "typescript";
import { generateProgram, generateProject, recordResourceName, slug } from "../../cli/codegen";
import type { Estate, EstateRecord } from "../../cli/estate";

const records: EstateRecord[] = [
  { type: "A", name: "@", content: "192.0.2.10", ttl: 300 },
  { type: "MX", name: "@", content: "mail1.example.com.", ttl: 3600, priority: 10 },
  { type: "MX", name: "@", content: "mail2.example.com.", ttl: 3600, priority: 20 },
  { type: "TXT", name: "@", content: 'v=spf1 include:"odd\\quoted" -all', ttl: 3600 },
  { type: "SRV", name: "_sip._tcp", content: "sip.example.com.", ttl: 600, priority: 5, extra: { weight: 10, port: 5060 } },
  { type: "CAA", name: "@", content: "letsencrypt.org", ttl: 3600, extra: { flag: 0, tag: "issue" } },
];

const estate: Estate = {
  domains: [
    { domain: "example.com", stage: "active", nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"], locked: true, privacy: true, protection: false, hosts: [{ hostname: "ns1.example.com", ipv4: ["192.0.2.53"], ipv6: [] }] },
    { domain: "gone.net", stage: "cancelled", nameservers: [], locked: null, privacy: false, protection: false, hosts: [] },
  ],
  zones: [{ domain: "example.com", records }],
};

describe("import code generation", () => {
  test("slugs are Pulumi-safe", () => {
    expect(slug("_sip._tcp.Example.COM")).toBe("sip-tcp-example-com");
    expect(slug("---")).toBe("x");
  });

  test("record names are stable and distinguish records of one name and type", () => {
    const a = recordResourceName("example.com", records[1]);
    const b = recordResourceName("example.com", records[2]);
    expect(a).toMatch(/^example-com-mx-apex-[0-9a-f]{6}$/);
    expect(a).not.toBe(b);
    expect(recordResourceName("example.com", { ...records[1] })).toBe(a);
  });

  test("output does not depend on the order the API listed things in", () => {
    const shuffled: Estate = {
      domains: [...estate.domains].reverse(),
      zones: [{ domain: "example.com", records: [...records].reverse() }],
    };
    expect(generateProgram(shuffled)).toBe(generateProgram(estate));
  });

  test("every resource adopts, domains no longer held are skipped, contacts are absent", () => {
    const program = generateProgram(estate);
    const declarations = program.match(/new reseller\.\w+\(/g) ?? [];
    // Domain + child host + privacy + zone + 6 records.
    expect(declarations).toHaveLength(10);
    expect(program.match(/adopt: true/g)).toHaveLength(10);
    expect(program).not.toContain("gone.net");
    expect(program).not.toMatch(/contacts\s*:/);
    expect(program).toContain("new reseller.PrivacyAddon(\"example-com-privacy\"");
  });

  test("strings with quotes and backslashes survive as the same value", () => {
    const program = generateProgram(estate);
    const js = ts.transpileModule(program, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
    const made: Array<{ cls: string; name: string; args: Record<string, unknown> }> = [];
    const fake = new Proxy({}, { get: (_t, cls: string) => function (this: unknown, name: string, args: Record<string, unknown>) { made.push({ cls, name, args }); } });
    new Function("require", "exports", js)((m: string) => (m === "reseller-pulumi" ? fake : require(m)), {});
    const txt = made.find((m) => m.args.type === "TXT");
    expect(txt?.args.content).toBe(records[3].content);
    const srv = made.find((m) => m.args.type === "SRV");
    expect(srv?.args).toMatchObject({ priority: 5, extra: { weight: 10, port: 5060 }, name: "_sip._tcp" });
  });

  test("the project has what `pulumi up` needs", () => {
    const files = generateProject(estate, "Example.com zone", "0.1.0");
    expect(files.map((f) => f.path).sort()).toEqual(["Pulumi.yaml", "README.md", "index.ts", "package.json", "tsconfig.json"]);
    const pkg = JSON.parse(files.find((f) => f.path === "package.json")!.content);
    expect(pkg.dependencies["reseller-pulumi"]).toBe("^0.1.0");
    expect(files.find((f) => f.path === "Pulumi.yaml")!.content).toContain("name: example-com-zone");
  });
});

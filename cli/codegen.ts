/**
 * Writes a TypeScript Pulumi program that adopts an estate (./estate): every resource carries
 * `adopt: true` and inputs equal to the live values, so the first `pulumi up` takes everything
 * into state without a charge or a change. Pure: same estate in, same text out, whatever order
 * the API listed things in.
 */
import { createHash } from "node:crypto";
import type { Estate, EstateDomain, EstateHost, EstateRecord, EstateZone } from "./estate";

/** Stages in which a domain no longer belongs to the account: nothing to adopt. */
const GONE_STAGES = new Set(["cancelled", "failed", "transferred_away"]);

export interface GeneratedFile {
  path: string;
  content: string;
}

/** A Pulumi logical name: lower case, [a-z0-9-], no leading/trailing or doubled dashes. */
export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "x";
}

function shortHash(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 6);
}

/**
 * Stable name of a record: zone, type, owner name ("@" reads "apex") and a short hash of the
 * record's identity (type, name, content, priority, extra), so two MX records of one name get
 * different, reproducible names.
 */
export function recordResourceName(zone: string, r: EstateRecord): string {
  const owner = r.name === "@" || r.name === "" ? "apex" : slug(r.name);
  const id = shortHash([r.type, r.name, r.content, r.priority ?? null, r.extra ?? null]);
  return `${slug(zone)}-${r.type.toLowerCase()}-${owner}-${id}`;
}

/** A TypeScript literal for a JSON-like value (JSON is valid TypeScript; keys stay quoted only when needed). */
export function literal(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(", ")}]`;
  const inner = indent + "  ";
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${inner}${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)},`);
  return entries.length ? `{\n${entries.join("\n")}\n${indent}}` : "{}";
}

function declare(className: string, name: string, args: Record<string, unknown>, opts?: string): string {
  return `new reseller.${className}(${JSON.stringify(name)}, ${literal(args)}${opts ? `, ${opts}` : ""});\n`;
}

const byKey = <T>(key: (t: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

function recordSortKey(r: EstateRecord): string {
  return JSON.stringify([r.name, r.type, r.content, r.priority ?? null, r.extra ?? null]);
}

function domainBlock(d: EstateDomain): string {
  const base = slug(d.domain);
  let out = `\n// ${d.domain} (stage ${d.stage} when imported)\n`;
  const args: Record<string, unknown> = { domain: d.domain, adopt: true };
  if (d.nameservers.length) args.nameservers = [...d.nameservers];
  if (d.locked !== null) args.locked = d.locked;
  out += declare("Domain", base, args);
  for (const h of [...d.hosts].sort(byKey((x: EstateHost) => x.hostname))) {
    out += declare("ChildHost", `${base}-host-${slug(h.hostname)}`, {
      domain: d.domain,
      hostname: h.hostname,
      ipv4: [...h.ipv4],
      ipv6: [...h.ipv6],
      adopt: true,
    });
  }
  if (d.privacy) out += declare("PrivacyAddon", `${base}-privacy`, { domain: d.domain, adopt: true });
  if (d.protection) out += declare("Protection", `${base}-protection`, { domain: d.domain, adopt: true });
  return out;
}

function zoneBlock(z: EstateZone): string {
  const zoneVar = `zone_${slug(z.domain).replace(/-/g, "_")}`;
  let out = `\n// DNS zone ${z.domain}: ${z.records.length} record(s)\n`;
  out += `const ${zoneVar} = ${declare("DnsZone", `${slug(z.domain)}-zone`, { domain: z.domain, adopt: true })}`;
  const seen = new Map<string, number>();
  for (const r of [...z.records].sort(byKey(recordSortKey))) {
    let name = recordResourceName(z.domain, r);
    // Exact duplicates (same type, name, content) would collide; number them in sorted order.
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1) name = `${name}-${n}`;
    const args: Record<string, unknown> = { zone: z.domain, type: r.type, name: r.name, content: r.content, ttl: r.ttl };
    if (r.priority !== null && r.priority !== undefined) args.priority = r.priority;
    if (r.extra && Object.keys(r.extra).length) args.extra = r.extra;
    args.adopt = true;
    out += declare("DnsRecord", name, args, `{ dependsOn: [${zoneVar}] }`);
  }
  return out;
}

/** The program's index.ts. */
export function generateProgram(estate: Estate): string {
  const domains = estate.domains.filter((d) => !GONE_STAGES.has(d.stage)).sort(byKey((d: EstateDomain) => d.domain));
  const zones = [...estate.zones].sort(byKey((z: EstateZone) => z.domain));
  let out =
    "// Generated by `reseller-pulumi import`. Every resource adopts what already exists:\n" +
    "// the first `pulumi up` takes it into state without buying or changing anything.\n" +
    "// Edit freely afterwards; a change then shows as a normal diff. Contacts are not written\n" +
    "// here (they are personal data): they stay as they are unless you declare them.\n" +
    'import * as reseller from "reseller-pulumi";\n';
  for (const d of domains) out += domainBlock(d);
  for (const z of zones) out += zoneBlock(z);
  return out;
}

/** Every file of the generated project. */
export function generateProject(estate: Estate, projectName: string, packageVersion: string): GeneratedFile[] {
  const name = slug(projectName);
  return [
    { path: "index.ts", content: generateProgram(estate) },
    {
      path: "Pulumi.yaml",
      content: `name: ${name}\ndescription: Imported from the reseller account by reseller-pulumi\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    },
    {
      path: "package.json",
      content:
        JSON.stringify(
          {
            name,
            private: true,
            main: "index.ts",
            dependencies: { "@pulumi/pulumi": "^3.248.0", "reseller-pulumi": `^${packageVersion}` },
            devDependencies: { "@types/node": "^20", typescript: "~5.9.0" },
          },
          null,
          2,
        ) + "\n",
    },
    {
      path: "tsconfig.json",
      content:
        JSON.stringify(
          { compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true }, files: ["index.ts"] },
          null,
          2,
        ) + "\n",
    },
    { path: "README.md", content: nextStepsReadme(name) },
  ];
}

/** What to run next, printed by the command and written as the project's README. */
export function nextSteps(dir: string): string {
  return [
    `cd ${dir}`,
    "npm install",
    "pulumi login --local            # or your usual backend",
    "pulumi stack init dev",
    "pulumi config set reseller:apiKey <API_KEY>",
    "pulumi config set --secret reseller:apiSecret <API_SECRET>",
    "pulumi config set reseller:baseUrl <BASE_URL>",
    "pulumi preview                  # expect only creates (adoptions), no updates",
    "pulumi up                       # adopts: no purchase, no change",
  ].join("\n");
}

function nextStepsReadme(name: string): string {
  return `# ${name}

Generated by \`reseller-pulumi import\`. Every resource has \`adopt: true\`: on the first
\`pulumi up\` it verifies that the object exists and takes it into state without buying or
changing anything. After that the program is yours: edit it and \`pulumi up\` as usual.

\`\`\`sh
${nextSteps(".")}
\`\`\`

Resource names are derived from the domain, the record's name and type and a short hash of
its content, so importing again produces the same names.
`;
}

/**
 * SRV: priority, weight, port, target (RFC 2782); owner _service._proto[.name], the service label
 * per RFC 6335 §5.1, any protocol label (RFC 2782 "_Proto", e.g. _tcp, _udp, _smtp, _sip), and a
 * wildcard in place of the service label (RFC 4592).
 */
import { canonicalTarget, decimal, fail, integerField, words, type RecordExtra } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

/**
 * RFC 6335 §5.1: 1 to 15 of [a-z0-9-], at least one letter, no hyphen at either end or twice in a row.
 * "+" is also taken (as in "_sip+d2t", published in real zones from the IANA SIP table): RFC 2181 §11
 * lets a label hold any octet, and refusing it would break those zones' import.
 */
const SERVICE = /^_(?=[a-z0-9+-]{1,15}$)(?=[^.]*[a-z])[a-z0-9](?:[a-z0-9+]|-(?!-))*(?<!-)$/;
const PROTO = /^_[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function ownerRule(name: string): string | undefined {
  const [service, proto] = name.split(".");
  if (name === "@" || proto === undefined)
    return "is not an SRV owner name: _service._proto[.name], e.g. _sip._tcp or _client._smtp (RFC 2782)";
  if (service !== "*" && !SERVICE.test(service))
    return `has the service label "${service}", which is not "_" then 1 to 15 letters, digits and inner hyphens with at least one letter (RFC 6335 §5.1), or "*" (RFC 4592)`;
  if (!PROTO.test(proto)) return `has the protocol label "${proto}", which is not "_" then letters, digits and inner hyphens (RFC 2782, e.g. _tcp, _udp, _tls)`;
  return undefined;
}

const FIELDS: readonly FieldKind[] = ["int", "int", "int", "name"];

export const SRV: RecordTypeEntry = {
  type: "SRV",
  rfc: "RFC 2782, RFC 6335 §5.1",
  priority: true,
  extra: ["weight", "port"],
  fields: FIELDS,
  parse(i, zone) {
    const w = words(i.content);
    const e = i.extra ?? {};
    let priority: number;
    let extra: RecordExtra;
    let target: string;
    if (w.length === 4) {
      if ((i.priority !== undefined && i.priority !== null) || e.weight !== undefined || e.port !== undefined)
        fail("content", i.content, "carries priority, weight and port while the priority/extra fields are also set: give them once, in the fields (RFC 2782)");
      priority = decimal(w[0], "content", 0, 65535, "the SRV priority", "RFC 2782");
      extra = { weight: decimal(w[1], "content", 0, 65535, "the SRV weight", "RFC 2782"), port: decimal(w[2], "content", 0, 65535, "the SRV port", "RFC 2782") };
      target = w[3];
    } else if (w.length === 1) {
      if (i.priority === undefined || i.priority === null) fail("priority", i.priority, "is required for SRV records: 0 to 65535 (RFC 2782)");
      priority = integerField(i.priority, "priority", 0, 65535, "SRV priority, RFC 2782");
      for (const k of ["weight", "port"] as const)
        if (e[k] === undefined || e[k] === null) fail(`extra.${k}`, e[k], `is required for SRV records: 0 to 65535 (RFC 2782)`);
      extra = { weight: integerField(e.weight, "extra.weight", 0, 65535, "SRV weight, RFC 2782"), port: integerField(e.port, "extra.port", 0, 65535, "SRV port, RFC 2782") };
      target = w[0];
    } else return fail("content", i.content, 'is not an SRV target host name, or "." (RFC 2782)');
    for (const k of Object.keys(e)) if (k !== "weight" && k !== "port") fail(`extra.${k}`, (e as Record<string, unknown>)[k], "is not an SRV field (weight, port)");
    return { content: canonicalTarget(target, zone, "content", true), priority, extra };
  },
  owner: ownerRule,
  print: (f) => `${f.priority} ${f.extra?.weight} ${f.extra?.port} ${dotted(f.content)}`,
  fromZone(tokens, origin) {
    return { content: absoluteNames(FIELDS, tokens, origin).join(" ") };
  },
};

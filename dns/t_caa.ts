/**
 * CAA (RFC 8659): flag, tag and value. The API carries flag and tag in `extra` and the value in
 * `content`; "0 issue \"ca.example\"" in content is read when extra is absent.
 * - flag: 0 or 128; the other bits are reserved and MUST be zero (RFC 8659 §4.1);
 * - tag: 1 to 15 letters and digits, compared case-insensitively, canonical lower case (§4.1.1);
 *   any such tag is taken (IANA registry: issue, issuewild, iodef, contactemail, contactphone,
 *   issuevmc, issuemail, ...), as an unknown non-critical property is simply ignored (§4.1);
 * - issue, issuewild, issuevmc, issuemail: `[issuer-domain] [; tag=value ...]` (§4.2), with the
 *   RFC 8657 parameters accounturi (a URI) and validationmethods (a comma list) checked; canonical
 *   form "issuer; a=b; c=d", the issuer in lower case;
 * - iodef: a mailto:, http: or https: URL (§4.4).
 */
import { URL } from "node:url";
import { fail, integerField, parseCharacterStrings, quoteString, type RecordExtra } from "./common";
import type { RecordTypeEntry } from "./entry";

const ISSUE_TAGS = new Set(["issue", "issuewild", "issuevmc", "issuemail"]);
const LABEL = /^[a-z0-9](?:-*[a-z0-9])*$/i;
const PARAM_VALUE = /^[\x21-\x3a\x3c-\x7e]*$/;

/** RFC 8659 §4.2 issue-value, canonical: "issuer; k=v; k=v" (";" alone forbids issuance). */
function issueValue(value: string, raw: unknown): string {
  const semi = value.indexOf(";");
  const issuer = (semi < 0 ? value : value.slice(0, semi)).trim();
  const rest = semi < 0 ? undefined : value.slice(semi + 1).trim();
  if (issuer !== "" && !issuer.split(".").every((l) => LABEL.test(l)))
    fail("content", raw, `has the issuer "${issuer}", which is not a domain name (letters, digits, inner hyphens; no trailing dot) (RFC 8659 §4.2); use ";" alone to forbid issuance`);
  const params: string[] = [];
  if (rest !== undefined && rest !== "") {
    for (const p of rest.split(";").map((x) => x.trim())) {
      const m = /^([A-Za-z0-9](?:-*[A-Za-z0-9])*)\s*=\s*(.*)$/.exec(p);
      if (!m) fail("content", raw, `has the parameter "${p}", which is not tag=value (RFC 8659 §4.2)`);
      const [, tag, v] = m!;
      if (!PARAM_VALUE.test(v)) fail("content", raw, `has the parameter ${tag} with a value holding a space, ";" or a control character (RFC 8659 §4.2)`);
      if (tag === "accounturi" && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(v)) fail("content", raw, `has accounturi "${v}", which is not a URI (RFC 8657 §3)`);
      if (tag === "validationmethods" && !/^[a-z0-9-]+(,[a-z0-9-]+)*$/i.test(v))
        fail("content", raw, `has validationmethods "${v}", which is not a comma list of method labels such as dns-01,http-01 (RFC 8657 §4)`);
      params.push(`${tag}=${v}`);
    }
  }
  const lower = issuer.toLowerCase();
  if (params.length === 0) return lower === "" ? ";" : lower;
  return `${lower}; ${params.join("; ")}`;
}

function iodefValue(value: string, raw: unknown): string {
  const v = value.trim();
  if (/\s/.test(v)) fail("content", raw, "is not one iodef URL: it holds white space (RFC 8659 §4.4, RFC 3986 §2)");
  let ok = false;
  try {
    const u = new URL(v);
    ok = (u.protocol === "mailto:" && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(u.pathname))) || ((u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "");
  } catch {
    ok = false;
  }
  if (!ok) fail("content", raw, "is not an iodef URL: mailto:address, http: or https: (RFC 8659 §4.4)");
  return v;
}

/** A value written as one quoted character-string is decoded; anything else is the value as written. */
function valueText(text: string, raw: unknown): string {
  if (!/^\s*"/.test(text)) return text;
  const parts = parseCharacterStrings(text, "content", true);
  if (parts.length !== 1) fail("content", raw, "holds more than one quoted string; a CAA value is one (RFC 8659 §4.1.1)");
  return parts[0];
}

export const CAA: RecordTypeEntry = {
  type: "CAA",
  rfc: "RFC 8659, RFC 8657",
  priority: false,
  extra: ["flag", "tag"],
  fields: ["int", "word", "string"],
  parse(i) {
    let flagRaw: unknown = i.extra?.flag;
    let tagRaw: unknown = i.extra?.tag;
    let value = i.content;
    if (i.extra === undefined || i.extra === null) {
      const m = /^\s*(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/.exec(i.content);
      if (!m || !/^\d+$/.test(m[1])) fail("extra", i.extra, 'is required for CAA records: {flag, tag} (or content "0 issue \\"ca.example\\"") (RFC 8659 §4.1)');
      flagRaw = Number(m![1]);
      tagRaw = m![2];
      value = m![3] ?? "";
    } else for (const k of Object.keys(i.extra)) if (k !== "flag" && k !== "tag") fail(`extra.${k}`, (i.extra as Record<string, unknown>)[k], "is not a CAA field (flag, tag)");
    // An omitted flag is 0 (no property critical), as DNS tools read it (octoDNS, zone-file generators).
    if (flagRaw === undefined || flagRaw === null) flagRaw = 0;
    const flag = integerField(flagRaw, "extra.flag", 0, 255, "CAA flags, RFC 8659 §4.1");
    if (flag !== 0 && flag !== 128) fail("extra.flag", flagRaw, "sets a reserved bit: CAA flags are 0, or 128 (Issuer Critical); the other bits MUST be zero (RFC 8659 §4.1)");
    if (tagRaw === undefined || tagRaw === null) fail("extra.tag", tagRaw, "is required for CAA records: issue, issuewild, iodef, ... (RFC 8659 §4.1.1)");
    if (typeof tagRaw !== "string" || !/^[A-Za-z0-9]{1,15}$/.test(tagRaw)) fail("extra.tag", tagRaw, "is not a CAA tag: 1 to 15 letters and digits (RFC 8659 §4.1.1)");
    const tag = (tagRaw as string).toLowerCase();
    const text = valueText(value, i.content);
    if (text.trim() === "") fail("content", i.content, `is empty: a CAA ${tag} property needs a value${ISSUE_TAGS.has(tag) ? ' (";" alone forbids issuance)' : ""} (RFC 8659 §4.1.1)`);
    if (text.includes("\0")) fail("content", i.content, "holds a NUL character, which the API's text cannot carry");
    let content: string;
    if (ISSUE_TAGS.has(tag)) content = issueValue(text, i.content);
    else if (tag === "iodef") content = iodefValue(text, i.content);
    // Any other property's value is kept byte for byte: only its owner knows what spaces mean.
    else content = text;
    const extra: RecordExtra = { flag, tag };
    return { content, priority: null, extra };
  },
  print: (f) => `${f.extra?.flag} ${f.extra?.tag} ${quoteString(f.content)}`,
  fromZone: (tokens) => ({ content: [...tokens.slice(0, 2), ...tokens.slice(2).map((t) => (t.startsWith('"') ? t : `"${t}"`))].join(" ") }),
};

/**
 * Types this package reads by their field layout alone: numbers, character-strings and domain names,
 * each field checked by its kind (entry.ts FieldKind). Their names are absolute like every target
 * (README, "Names inside record data"), strings keep their exact bytes (canonical: quoted).
 * NAPTR (RFC 3403 §4.1), RP (RFC 1183 §2.2), AFSDB (RFC 1183 §1), RT (RFC 1183 §3.3), KX
 * (RFC 2230 §3.1), PX (RFC 2163 §4), LP (RFC 6742 §2.4), MINFO, MB, MG, MR (RFC 1035 §3.3),
 * HINFO (RFC 1035 §3.3.2); URI (RFC 7553) by the same layout, its target read by its own rule.
 */
import { canonicalTarget, decimal, fail, parseCharacterStrings, presentationTokens, quoteString } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

/** `root`: a name field may be "." (NAPTR's "no replacement", RP's "none"). */
function layoutType(type: string, rfc: string, fields: readonly FieldKind[], root = false): RecordTypeEntry {
  const shape = fields.map((k) => (k === "int" ? "number" : k === "name" ? "name" : k === "string" ? '"string"' : "value")).join(" ");
  return {
    type,
    rfc,
    priority: false,
    extra: [],
    fields,
    parse(i, zone) {
      const t = presentationTokens(i.content, i.content);
      if (t.length !== fields.length) fail("content", i.content, `is not ${type} content: ${fields.length} fields, ${shape} (${rfc})`);
      const out = t.map((tok, k) => {
        switch (fields[k]) {
          case "int":
            return String(decimal(tok, "content", 0, 65535, `the ${type} field ${k + 1}`, rfc));
          case "name":
            return canonicalTarget(tok, zone, "content", root);
          case "string": {
            const s = parseCharacterStrings(tok, "content");
            if (s.length !== 1) fail("content", i.content, `has "${tok}" where one character-string is expected (${rfc})`);
            if (Buffer.byteLength(s[0], "utf8") > 255) fail("content", i.content, `has a character-string of more than 255 octets (RFC 1035 §3.3)`);
            return quoteString(s[0]);
          }
          default:
            return tok;
        }
      });
      return { content: out.join(" "), priority: null, extra: null };
    },
    print: (f) =>
      presentationTokens(f.content, f.content)
        .map((tok, k) => (fields[k] === "name" ? dotted(tok) : tok))
        .join(" "),
    fromZone: (tokens, origin) => ({ content: absoluteNames(fields, tokens, origin).join(" ") }),
  };
}

export const NAPTR = layoutType("NAPTR", "RFC 3403 §4.1", ["int", "int", "string", "string", "string", "name"], true);
export const RP = layoutType("RP", "RFC 1183 §2.2", ["name", "name"], true);
export const AFSDB = layoutType("AFSDB", "RFC 1183 §1", ["int", "name"]);
export const RT = layoutType("RT", "RFC 1183 §3.3", ["int", "name"]);
export const KX = layoutType("KX", "RFC 2230 §3.1", ["int", "name"]);
export const PX = layoutType("PX", "RFC 2163 §4", ["int", "name", "name"]);
export const LP = layoutType("LP", "RFC 6742 §2.4", ["int", "name"]);
export const MINFO = layoutType("MINFO", "RFC 1035 §3.3.7", ["name", "name"]);
export const MB = layoutType("MB", "RFC 1035 §3.3.3", ["name"]);
export const MG = layoutType("MG", "RFC 1035 §3.3.6", ["name"]);
export const MR = layoutType("MR", "RFC 1035 §3.3.8", ["name"]);
export const HINFO = layoutType("HINFO", "RFC 1035 §3.3.2", ["string", "string"]);
/**
 * URI (RFC 7553 §4.4): priority, weight and the target URI in quotes. The target is not a
 * character-string (§4.5: the rest of the data, so longer than 255 octets is fine) and is never
 * empty (§4.5); it is a URI, so it starts with a scheme and ":" (RFC 3986 §3) and holds no
 * white space or control character (RFC 3986 §2).
 */
const URI_LAYOUT = layoutType("URI", "RFC 7553 §4.4", ["int", "int", "string"]);
export const URI: RecordTypeEntry = {
  ...URI_LAYOUT,
  parse(i) {
    const rfc = "RFC 7553 §4.4";
    const t = presentationTokens(i.content, i.content);
    if (t.length !== 3) fail("content", i.content, `is not URI content: priority weight "target", e.g. 10 1 "https://www.example.com/" (${rfc})`);
    const [priority, weight] = [0, 1].map((k) => String(decimal(t[k], "content", 0, 65535, `the URI ${k === 0 ? "priority" : "weight"}`, rfc)));
    const s = parseCharacterStrings(t[2], "content");
    if (s.length !== 1) fail("content", i.content, `has "${t[2]}" where one quoted target is expected (${rfc})`);
    const target = s[0];
    if (target === "") fail("content", i.content, "has an empty target; a URI record's target is never empty (RFC 7553 §4.5)");
    if (/[\s\x00-\x1f\x7f]/.test(target)) fail("content", i.content, "has white space or a control character in its target, which no URI holds (RFC 3986 §2)");
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) fail("content", i.content, `has the target "${target.slice(0, 60)}", which is not a URI: a URI starts with its scheme and ":", e.g. https: (RFC 3986 §3, RFC 7553 §4.4)`);
    return { content: `${priority} ${weight} ${quoteString(target)}`, priority: null, extra: null };
  },
};

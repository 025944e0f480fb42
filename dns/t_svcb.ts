/**
 * SVCB and HTTPS (RFC 9460): "priority target [key[=value] ...]" in content.
 * - priority 0 is AliasMode and takes no parameters (§2.4.2: records SHOULD NOT include any);
 * - keys are the registered names (mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint;
 *   dohpath RFC 9461; ohttp RFC 9540) or keyNNNNN for an unnamed one (§2.1), never repeated (§2.2);
 * - values per key (§7): alpn a non-empty comma list with \, escapes, port 0-65535, hints non-empty
 *   address lists, ech base64, mandatory keys that are present and not "mandatory" itself (§8),
 *   no-default-alpn only with alpn (§7.1.1);
 * - canonical form: keys in numeric order (the wire order, §2.2), addresses RFC 5952, values quoted
 *   only when they must be.
 */
import { canonicalTarget, decimal, fail, ipv4, ipv6, parseCharacterStrings, presentationTokens } from "./common";
import { absoluteNames, dotted, type FieldKind, type RecordTypeEntry } from "./entry";

const KEYS: Record<string, number> = { mandatory: 0, alpn: 1, "no-default-alpn": 2, port: 3, ipv4hint: 4, ech: 5, ipv6hint: 6, dohpath: 7, ohttp: 8 };
const NAMES = Object.fromEntries(Object.entries(KEYS).map(([k, v]) => [v, k])) as Record<number, string>;
const FLAGS = new Set(["no-default-alpn", "ohttp"]);

/** A value-list (RFC 9460 Appendix A.1): commas separate items, "\," and "\\" escape them. */
function valueList(v: string, key: string, raw: unknown): string[] {
  const items: string[] = [];
  let cur = "";
  for (let i = 0; i < v.length; i++) {
    if (v[i] === "\\") {
      if (v[i + 1] !== "," && v[i + 1] !== "\\") fail("content", raw, `has ${key} with a backslash not before "," or "\\" (RFC 9460 Appendix A.1)`);
      cur += v[++i];
    } else if (v[i] === ",") {
      items.push(cur);
      cur = "";
    } else cur += v[i];
  }
  items.push(cur);
  if (items.some((x) => x === "")) fail("content", raw, `has ${key} with an empty item (",," or a comma at either end) (RFC 9460 §7.1.1)`);
  return items;
}

/** A value for presentation: bare when it can be, else quoted with " and \ escaped. */
function present(v: string): string {
  if (v !== "" && /^[\x21-\x7e]+$/.test(v) && !/["\\;()]/.test(v)) return v;
  return `"${v.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

function keyNumber(key: string, raw: unknown): number {
  if (Object.hasOwn(KEYS, key)) return KEYS[key];
  const m = /^key(\d{1,5})$/.exec(key);
  if (!m) fail("content", raw, `has the parameter key "${key}", which is neither a registered SvcParamKey (${Object.keys(KEYS).join(", ")}) nor keyNNNNN (RFC 9460 §2.1, §14.3.2)`);
  const n = Number(m![1]);
  if (m![1] !== String(n)) fail("content", raw, `has "${key}": keyNNNNN has no leading zeros (RFC 9460 §2.1)`);
  if (n > 65534) fail("content", raw, `has "${key}": key65535 is reserved (RFC 9460 §14.3.2)`);
  if (NAMES[n]) fail("content", raw, `has "${key}", the number of ${NAMES[n]}: write it by its name (RFC 9460 §2.1)`);
  return n;
}

const FIELDS: readonly FieldKind[] = ["int", "name", "rest"];

function svcbType(type: string): RecordTypeEntry {
  return {
    type,
    rfc: "RFC 9460",
    priority: false,
    extra: [],
    fields: FIELDS,
    parse(i, zone) {
      const raw = i.content;
      const t = presentationTokens(i.content, raw, "RFC 9460 §2.1");
      if (t.length < 2) fail("content", raw, `is not ${type} content: priority target [key=value ...], e.g. 1 . alpn=h2 (RFC 9460 §2.1)`);
      const priority = decimal(t[0], "content", 0, 65535, `the ${type} SvcPriority`, "RFC 9460 §2.4.1");
      const target = canonicalTarget(t[1], zone, "content", true);
      const params = new Map<number, { key: string; value: string | undefined }>();
      for (const p of t.slice(2)) {
        const eq = p.indexOf("=");
        const key = eq < 0 ? p : p.slice(0, eq);
        if (!/^[a-z0-9-]{1,63}$/.test(key)) fail("content", raw, `has the parameter "${p}", whose key is not lower-case letters, digits and hyphens (RFC 9460 §2.1)`);
        const n = keyNumber(key, raw);
        if (params.has(n)) fail("content", raw, `repeats the key ${key} (RFC 9460 §2.2: keys SHALL NOT repeat)`);
        let value: string | undefined;
        if (eq >= 0) {
          const text = p.slice(eq + 1);
          if (text === "") value = "";
          else {
            const parts = parseCharacterStrings(text, "content");
            if (parts.length !== 1) fail("content", raw, `has ${key} with a value that is not one string (RFC 9460 §2.1)`);
            value = parts[0];
          }
        }
        params.set(n, { key, value });
      }
      if (priority === 0 && params.size > 0) fail("content", raw, `has ${type} priority 0 (AliasMode), which takes no parameters (RFC 9460 §2.4.2)`);
      const out: string[] = [];
      for (const n of [...params.keys()].sort((a, b) => a - b)) {
        const { key, value } = params.get(n)!;
        if (FLAGS.has(key)) {
          if (value !== undefined && value !== "") fail("content", raw, `has ${key}=${value}: ${key} takes no value (RFC 9460 §7.1.1, RFC 9540 §4)`);
          out.push(key);
          continue;
        }
        const v = value ?? "";
        const needValue = () => v === "" && fail("content", raw, `has ${key} without a value (RFC 9460 §7)`);
        switch (key) {
          case "mandatory": {
            needValue();
            const keys = valueList(v, key, raw);
            const nums = keys.map((k) => keyNumber(k, raw));
            if (nums.includes(0)) fail("content", raw, 'has "mandatory" listing itself (RFC 9460 §8)');
            if (new Set(nums).size !== nums.length) fail("content", raw, "has mandatory listing a key twice (RFC 9460 §8)");
            const absent = keys.filter((_k, j) => !params.has(nums[j]));
            if (absent.length) fail("content", raw, `has mandatory=${v} naming ${absent.join(", ")}, which the record does not carry (RFC 9460 §8)`);
            out.push(`mandatory=${[...nums].sort((a, b) => a - b).map((x) => NAMES[x] ?? `key${x}`).join(",")}`);
            break;
          }
          case "alpn": {
            needValue();
            const ids = valueList(v, key, raw);
            out.push(`alpn=${present(ids.map((x) => x.replace(/[\\,]/g, (c) => "\\" + c)).join(","))}`);
            break;
          }
          case "port":
            out.push(`port=${decimal(v, "content", 0, 65535, "the port", "RFC 9460 §7.2")}`);
            break;
          case "ipv4hint":
            needValue();
            out.push(`ipv4hint=${v.split(",").map((a) => ipv4(a, "content", raw as string)).join(",")}`);
            break;
          case "ipv6hint":
            needValue();
            out.push(`ipv6hint=${v.split(",").map((a) => ipv6(a, "content", raw as string)).join(",")}`);
            break;
          case "ech":
            needValue();
            if (!/^[A-Za-z0-9+/]+={0,2}$/.test(v) || v.length % 4 !== 0) fail("content", raw, `has ech "${v}", which is not base64 (RFC 9460 §7.3, RFC 4648 §4)`);
            out.push(`ech=${v}`);
            break;
          case "dohpath":
            if (!v.startsWith("/") || !/\{\?dns\}|\{&dns\}|\{dns\}/.test(v)) fail("content", raw, `has dohpath "${v}", which is not a relative URI template with a dns variable, e.g. /dns-query{?dns} (RFC 9461 §5)`);
            out.push(`dohpath=${present(v)}`);
            break;
          default:
            // An empty value and no value are the same (RFC 9460 §2.1: the "=" may then be left out).
            out.push(v === "" ? key : `${key}=${present(v)}`);
        }
      }
      if (params.has(KEYS["no-default-alpn"]) && !params.has(KEYS.alpn)) fail("content", raw, "has no-default-alpn without alpn (RFC 9460 §7.1.1)");
      return { content: [priority, target, ...out].join(" "), priority: null, extra: null };
    },
    print(f) {
      const [p, target, ...rest] = f.content.split(" ");
      return [p, dotted(target), ...rest].join(" ");
    },
    fromZone(toks, origin) {
      return { content: absoluteNames(FIELDS, toks, origin).join(" ") };
    },
  };
}

export const SVCB = svcbType("SVCB");
export const HTTPS = svcbType("HTTPS");

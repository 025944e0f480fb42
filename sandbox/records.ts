/**
 * DNS record validation, per type. Returns the stored form or throws 422 naming the field.
 * Types outside the checked list are passed through with a non-empty content.
 */
import { isIPv4, isIPv6 } from "node:net";
import { isServiceManagedRecord } from "../provider/contract";
import { invalid, missing } from "./errors";
import type { RecordEntry } from "./state";
import { canonicalHost, type Body } from "./validate";

export interface RecordDraft {
  type: string;
  name: string;
  content: string;
  ttl: number | null;
  priority: number | null;
  extra: Record<string, number | string> | null;
}

const CAA_TAGS = ["issue", "issuewild", "iodef"];
const NAME = /^(?:@|(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*)$/;

const u16 = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65535;

function target(content: string, field: string, allowRoot = false): string {
  if (allowRoot && content === ".") return content;
  if (!canonicalHost(content, true)) throw invalid(field, content, "a fully qualified host name such as mail.example.com");
  return content;
}

/** Merge a body onto an existing record (PUT) or start from nothing (POST), then validate. */
export function validateRecord(body: Body, base: RecordEntry | null, ttlRange: { min: number; max: number }): RecordDraft {
  const pick = <K extends keyof RecordEntry>(k: K): unknown => (body[k] !== undefined ? body[k] : base ? base[k] : undefined);
  const typeRaw = pick("type");
  if (typeRaw === undefined || typeRaw === null) throw missing("type", "a record type such as A, MX or TXT");
  if (typeof typeRaw !== "string" || !/^[A-Za-z][A-Za-z0-9]{0,15}$/.test(typeRaw)) throw invalid("type", typeRaw, "a record type such as A, MX or TXT");
  const type = typeRaw.toUpperCase();

  const nameRaw = pick("name");
  if (nameRaw === undefined || nameRaw === null) throw missing("name", "a name relative to the zone, or @ for the domain itself");
  if (typeof nameRaw !== "string" || nameRaw.length > 200 || !NAME.test(nameRaw.toLowerCase())) {
    throw invalid("name", nameRaw, "a name relative to the zone (labels of letters, digits, -, _ or *), or @; not a fully qualified name");
  }
  const name = nameRaw.toLowerCase();

  const contentRaw = pick("content");
  if (contentRaw === undefined || contentRaw === null) throw missing("content", "the record value");
  if (typeof contentRaw !== "string" || contentRaw.trim() === "" || contentRaw.length > 4096 || contentRaw.includes("\0")) {
    throw invalid("content", contentRaw, "a non-empty string of at most 4096 characters");
  }
  const content = contentRaw.trim();

  let ttl: number | null = null;
  const ttlRaw = body.ttl;
  if (ttlRaw !== undefined && ttlRaw !== null) {
    if (typeof ttlRaw !== "number" || !Number.isInteger(ttlRaw) || ttlRaw < ttlRange.min || ttlRaw > ttlRange.max) {
      throw invalid("ttl", ttlRaw, `an integer number of seconds from ${ttlRange.min} to ${ttlRange.max}`);
    }
    ttl = ttlRaw;
  }

  let priority: number | null = null;
  let extra: RecordDraft["extra"] = null;
  const needPriority = (): number => {
    const p = pick("priority");
    if (p === undefined || p === null) throw missing("priority", `an integer from 0 to 65535 (required for ${type})`);
    if (!u16(p)) throw invalid("priority", p, "an integer from 0 to 65535");
    return p;
  };
  const extraObj = (): Body => {
    const e = pick("extra");
    if (e === undefined || e === null) throw missing("extra", type === "SRV" ? "an object with weight and port" : "an object with flag and tag");
    if (typeof e !== "object" || Array.isArray(e)) throw invalid("extra", e, "an object");
    return e as Body;
  };

  switch (type) {
    case "A":
      if (!isIPv4(content)) throw invalid("content", content, "an IPv4 address for an A record");
      break;
    case "AAAA":
      if (!isIPv6(content)) throw invalid("content", content, "an IPv6 address for an AAAA record");
      break;
    case "CNAME":
      if (name === "@") throw invalid("name", name, "a CNAME cannot be at the zone apex (@)");
      target(content, "content");
      break;
    case "NS":
      if (isServiceManagedRecord("", { type, name })) throw invalid("name", name, "NS records at the apex are managed by the service");
      target(content, "content");
      break;
    case "PTR":
      target(content, "content");
      break;
    case "MX":
      priority = needPriority();
      target(content, "content", true);
      break;
    case "TXT":
      break;
    case "SRV": {
      priority = needPriority();
      target(content, "content", true);
      const e = extraObj();
      if (e.weight === undefined || e.weight === null) throw missing("extra.weight", "an integer from 0 to 65535");
      if (!u16(e.weight)) throw invalid("extra.weight", e.weight, "an integer from 0 to 65535");
      if (e.port === undefined || e.port === null) throw missing("extra.port", "an integer from 0 to 65535");
      if (!u16(e.port)) throw invalid("extra.port", e.port, "an integer from 0 to 65535");
      extra = { weight: e.weight, port: e.port };
      break;
    }
    case "CAA": {
      const e = extraObj();
      const flag = e.flag === undefined || e.flag === null ? 0 : e.flag;
      if (typeof flag !== "number" || !Number.isInteger(flag) || flag < 0 || flag > 255) throw invalid("extra.flag", flag, "an integer from 0 to 255");
      if (e.tag === undefined || e.tag === null) throw missing("extra.tag", `one of ${CAA_TAGS.join(", ")}`);
      if (typeof e.tag !== "string" || !CAA_TAGS.includes(e.tag.toLowerCase())) throw invalid("extra.tag", e.tag, `one of ${CAA_TAGS.join(", ")}`);
      extra = { flag, tag: e.tag.toLowerCase() };
      if (extra.tag === "iodef" ? !/^(mailto:|https?:)/.test(content) : !/^[A-Za-z0-9.;= -]*$/.test(content)) {
        throw invalid("content", content, extra.tag === "iodef" ? "a mailto: or https: URL for iodef" : "an issuer domain such as letsencrypt.org (or ; to forbid issuance)");
      }
      break;
    }
    case "TLSA":
      if (!/^[0-3] [01] [0-2] [0-9A-Fa-f]{2,}$/.test(content)) throw invalid("content", content, "usage (0-3), selector (0-1), matching type (0-2) and hex data, separated by spaces");
      break;
    case "SSHFP":
      if (!/^[1-46] [12] [0-9A-Fa-f]{2,}$/.test(content)) throw invalid("content", content, "algorithm (1-4 or 6), fingerprint type (1-2) and hex fingerprint, separated by spaces");
      break;
    case "DS": {
      const m = /^(\d{1,5}) (\d{1,3}) ([1-4]) ([0-9A-Fa-f]{2,})$/.exec(content);
      if (!m || Number(m[1]) > 65535 || Number(m[2]) < 1 || Number(m[2]) > 255) {
        throw invalid("content", content, "key tag (0-65535), algorithm (1-255), digest type (1-4) and hex digest, separated by spaces");
      }
      break;
    }
    case "HTTPS":
    case "SVCB": {
      const parts = content.split(/\s+/);
      const prio = Number(parts[0]);
      if (!/^\d{1,5}$/.test(parts[0]) || prio > 65535 || parts.length < 2 || (parts[1] !== "." && !canonicalHost(parts[1], true))) {
        throw invalid("content", content, `priority (0-65535), target (a host name or .) and optional key=value parameters for ${type}`);
      }
      if (prio === 0 && parts.length > 2) throw invalid("content", content, "alias mode (priority 0) takes no parameters");
      break;
    }
    default:
      break;
  }
  return { type, name, content, ttl, priority, extra };
}

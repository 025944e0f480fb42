/**
 * Authentication and admission: key and secret, IP allowlist, rate limit, signature with
 * timestamp and single-use nonce, scopes. Wall-clock time comes from the caller.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { closeSync, constants, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { BlockList, isIPv4, isIPv6 } from "node:net";
import type { Contract } from "../api/contract";
import { parseTimestamp, verifySignature } from "../api/signing";
import { ApiError } from "./errors";
import type { Credential } from "./routing";

export type Headers = Record<string, string | string[] | undefined>;

export function header(h: Headers, name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Key and secret: 401 unauthorized for either one wrong, without saying which. */
export function authenticate(creds: Credential[], h: Headers, contract: Contract): Credential {
  const key = header(h, contract.headers.key);
  const secret = header(h, contract.headers.secret);
  if (!key || !secret) {
    throw new ApiError("unauthorized", `send your API key in ${contract.headers.key} and your API secret in ${contract.headers.secret}`);
  }
  const cred = creds.find((c) => c.key === key);
  if (!cred || !sameSecret(cred.secret, secret)) {
    throw new ApiError("unauthorized", "the API key or secret is not valid");
  }
  return cred;
}

/** The caller's address in plain form (IPv4-mapped IPv6 unwrapped). */
export function normalizeAddress(addr: string | undefined): string {
  if (!addr) return "";
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  return m ? m[1] : addr;
}

/**
 * An allowlist of addresses and CIDR ranges (IPv4 and IPv6). Throws on an entry that is neither,
 * so startSandbox refuses a bad list at start instead of failing requests later.
 */
export function parseAllowList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [ip, bits, ...rest] = entry.trim().split("/");
    const type = isIPv4(ip) ? "ipv4" : isIPv6(ip) ? "ipv6" : null;
    const max = type === "ipv4" ? 32 : 128;
    if (!type || rest.length > 0 || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new Error(`allowIps entry ${JSON.stringify(entry)} is not an IPv4/IPv6 address or CIDR range`);
    }
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return list;
}

/** Per-credential IP allowlist of addresses and CIDR ranges; empty means any address. */
export function checkAllowlist(cred: Credential, address: string): void {
  if (cred.allowIps.length === 0) return;
  const list = parseAllowList(cred.allowIps);
  const type = isIPv4(address) ? "ipv4" : "ipv6";
  if (!address || !(isIPv4(address) || isIPv6(address)) || !list.check(address, type)) {
    throw new ApiError("ip_not_allowed", `requests from ${address || "this address"} are not in the allowlist of API key ${cred.key}; add the address in the reseller portal`);
  }
}

/** Sliding window per credential (contract.rateLimit.windowSeconds, 60 by default): perMinute × window / 60 requests. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  check(key: string, perMinute: number, nowMs: number, windowMs = 60_000): void {
    const since = nowMs - windowMs;
    const allowed = (perMinute * windowMs) / 60_000;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= allowed) {
      const retry = Math.max(1, Math.ceil((list[0] + windowMs - nowMs) / 1000));
      this.hits.set(key, list);
      throw new ApiError("rate_limited", `rate limit of ${perMinute} requests per minute for API key ${key} exceeded; retry after ${retry} s`, undefined, {
        retry_after: retry,
        limit: perMinute,
      });
    }
    list.push(nowMs);
    this.hits.set(key, list);
  }
  clear(): void {
    this.hits.clear();
  }
}

/** The file beside a sandbox's data file that keeps the nonces it has seen (./server.ts, Sandbox). */
export const nonceFileOf = (dataFile: string): string => `${dataFile}.nonces`;

/**
 * Nonces seen, per credential, kept for the contract's retention time. With a file (beside the data
 * file) they outlive a restart, as a service's would: a signed request captured before the restart
 * is refused after it. Each line of the file is "<expiry ms> <hash>", the hash a SHA-256 of the key
 * and the nonce (the file names no credential); it is appended to per request, and rewritten
 * without the expired lines when the store prunes and when it is loaded.
 */
export class NonceStore {
  private readonly seen = new Map<string, number>();

  constructor(private readonly file?: string) {
    if (!file) return;
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`startSandbox: the nonce file ${file} cannot be read (${(e as Error).message}); move it away`);
    }
    for (const line of text.split("\n")) {
      const m = /^(\d{1,16}) ([0-9a-f]{64})$/.exec(line);
      if (m) this.seen.set(m[2], Math.max(Number(m[1]), this.seen.get(m[2]) ?? 0));
    }
    this.rewrite();
  }

  /** Returns false when the nonce was used already. */
  use(key: string, nonce: string, nowMs: number, retentionSeconds: number): boolean {
    if (this.seen.size > 10_000) this.prune(nowMs);
    const id = createHash("sha256").update(`${key}\n${nonce}`, "utf8").digest("hex");
    const exp = this.seen.get(id);
    if (exp !== undefined && exp > nowMs) return false;
    const until = nowMs + retentionSeconds * 1000;
    this.seen.set(id, until);
    if (this.file) {
      const fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, `${until} ${id}\n`);
      } finally {
        closeSync(fd);
      }
    }
    return true;
  }

  clear(): void {
    this.seen.clear();
    this.rewrite();
  }

  private prune(nowMs: number): void {
    const before = this.seen.size;
    for (const [k, exp] of this.seen) if (exp <= nowMs) this.seen.delete(k);
    if (this.seen.size < before) this.rewrite();
  }

  /** The file as the store holds it now (none when it holds none): a new file (a link planted at its temp name is not followed), then renamed over. */
  private rewrite(): void {
    if (!this.file) return;
    if (this.seen.size === 0) return void rmSync(this.file, { force: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeSync(fd, [...this.seen].map(([id, exp]) => `${exp} ${id}\n`).join(""));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
  }
}

/** Verify signature, timestamp and nonce (contract.headers names, signing.ts canonical string). */
export function verifySigned(
  cred: Credential,
  h: Headers,
  method: string,
  rawPath: string,
  body: Buffer,
  contract: Contract,
  nowMs: number,
  nonces: NonceStore,
): void {
  const H = contract.headers;
  const sig = header(h, H.signature);
  const ts = header(h, H.timestamp);
  const nonce = header(h, H.nonce);
  const serverTime = Math.floor(nowMs / 1000);
  if (!sig || !ts || !nonce) {
    const absent = [!sig && H.signature, !ts && H.timestamp, !nonce && H.nonce].filter(Boolean).join(", ");
    throw new ApiError("invalid_signature", `this endpoint needs a signed request; missing header(s): ${absent}`, undefined, { server_time: serverTime });
  }
  const tsMs = parseTimestamp(ts, contract.signing.timestampUnit);
  if (Number.isNaN(tsMs) || Math.abs(tsMs - nowMs) > contract.signing.clockSkewSeconds * 1000) {
    throw new ApiError(
      "timestamp_out_of_range",
      `${H.timestamp} ${JSON.stringify(ts.slice(0, 32))} is more than ${contract.signing.clockSkewSeconds} s from the server clock ${serverTime}; sync your clock`,
      undefined,
      { server_time: serverTime, max_skew_seconds: contract.signing.clockSkewSeconds },
    );
  }
  if (nonce.length > 128 || !/^[\x21-\x7e]+$/.test(nonce)) {
    throw new ApiError("invalid_signature", `${H.nonce} must be 1 to 128 visible ASCII characters`);
  }
  const ok = verifySignature({ method, path: rawPath, body, apiKey: cred.key, timestamp: ts, nonce }, cred.secret, sig, contract.signing.signatureEncoding, contract.signing);
  if (!ok) {
    const signed = contract.signing.canonicalFields.join(", ");
    throw new ApiError("invalid_signature", `the ${H.signature} does not match the request; sign ${signed} (joined by ${JSON.stringify(contract.signing.separator)}) with your API secret`);
  }
  if (!nonces.use(cred.key, nonce, nowMs, contract.signing.nonceRetentionSeconds)) {
    throw new ApiError("nonce_reused", `${H.nonce} ${JSON.stringify(nonce)} was used already; send a fresh nonce with every request`);
  }
}

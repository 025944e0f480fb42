/**
 * Test helper: a signed request to the sandbox API, built with api/signing.ts and the
 * contract's header names. Nonces come from a counter so runs are repeatable.
 */
import { request } from "node:http";
import { DEFAULT_CONTRACT, type Contract } from "../../api/contract";
import { formatTimestamp, signRequest } from "../../api/signing";

export interface Api {
  (method: string, path: string, body?: unknown, opts?: CallOptions): Promise<Answer>;
}

export interface CallOptions {
  idempotencyKey?: string;
  /** Omit the signature headers. */
  unsigned?: boolean;
  key?: string;
  secret?: string;
  /** Override the signing clock (ms). */
  timestampMs?: number;
  nonce?: string;
  /** Raw body text sent as is (not JSON-encoded). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

let counter = 0;
export const nextNonce = (): string => `nonce-${process.pid}-${++counter}`;

export function makeApi(baseUrl: string, creds: { key: string; secret: string }, contract: Contract = DEFAULT_CONTRACT): Api {
  return async (method, path, body, opts = {}) => {
    const full = `${contract.apiPrefix}${path}`;
    const text = opts.raw ?? (body === undefined ? "" : JSON.stringify(body));
    const key = opts.key ?? creds.key;
    const secret = opts.secret ?? creds.secret;
    const H = contract.headers;
    const headers: Record<string, string> = { [H.key]: key, [H.secret]: secret, "Content-Type": "application/json" };
    if (!opts.unsigned) {
      const timestamp = formatTimestamp(opts.timestampMs ?? Date.now(), contract.signing.timestampUnit);
      const nonce = opts.nonce ?? nextNonce();
      headers[H.timestamp] = timestamp;
      headers[H.nonce] = nonce;
      headers[H.signature] = signRequest({ method, path: full, body: text, apiKey: key, timestamp, nonce }, secret, contract.signing.signatureEncoding);
    }
    if (opts.idempotencyKey !== undefined) headers[H.idempotencyKey] = opts.idempotencyKey;
    Object.assign(headers, opts.headers ?? {});
    // node:http sends the path byte for byte (fetch would normalise "..", which the tests need to send).
    const { status, head, raw } = await send(baseUrl, method, full, headers, text);
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      /* keep the text */
    }
    return { status, headers: head, body: parsed };
  };
}

function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; head: Headers; raw: string }> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const head = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) head.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve({ status: res.statusCode ?? 0, head, raw: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

export const CONTACT = {
  name: "Test Person",
  organization: null,
  email: "test@example.org",
  phone: "+15555550100",
  address_line_1: "1 Test Road",
  address_line_2: null,
  city: "Testville",
  state: "TS",
  postal_code: "12345",
  country: "US",
};

/**
 * A signed GET over fetch, for tests that talk to a sandbox by URL only (a spawned CLI, an
 * [::1] server that node:http's host option cannot reach). Nonces come from a counter.
 */
import { DEFAULT_CONTRACT } from "../../api/contract";
import { formatTimestamp, signRequest } from "../../api/signing";

let nonces = 0;

export async function signedGet(base: string, key: string, secret: string, p: string): Promise<{ status: number; body: { data?: Record<string, unknown>; error?: { code: string } } }> {
  const full = `${DEFAULT_CONTRACT.apiPrefix}${p}`;
  const H = DEFAULT_CONTRACT.headers;
  const timestamp = formatTimestamp(Date.now());
  const nonce = `signed-get-${process.pid}-${++nonces}`;
  const res = await fetch(`${base}${full}`, {
    headers: {
      [H.key]: key,
      [H.secret]: secret,
      [H.timestamp]: timestamp,
      [H.nonce]: nonce,
      [H.signature]: signRequest({ method: "GET", path: full, body: "", apiKey: key, timestamp, nonce }, secret),
    },
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: { code: string } } };
}

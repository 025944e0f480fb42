/**
 * Hostile ways to deliver a real answer, as `write` rewrites of test/support/rewriting-proxy.ts
 * (its `lie`s cover bodies that are simply wrong): late, dripped, oversized, declaring a size it
 * never sends, redirected. Each stops writing once the client has gone, so nothing outlives its test.
 */
import type * as http from "node:http";
import type { Answer } from "../support/rewriting-proxy";

export type AnswerWriter = (answer: Answer, res: http.ServerResponse) => void | Promise<void>;

const gone = (res: http.ServerResponse): boolean => res.destroyed || res.writableEnded;

/** The answer as the server sent it (its length recomputed). */
function pass(a: Answer, res: http.ServerResponse): void {
  const headers = { ...a.headers };
  for (const h of ["transfer-encoding", "connection", "content-length"]) delete headers[h];
  res.writeHead(a.status, headers);
  res.end(a.body);
}

/** The whole answer, after `ms` (or never, if the client leaves first). */
export const lateHeaders =
  (ms: number): AnswerWriter =>
  async (a, res) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      res.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (!gone(res)) pass(a, res);
  };

/** A redirect to `location` (another host). */
export const redirectTo =
  (location: string): AnswerWriter =>
  (_a, res) => {
    res.writeHead(307, { location, "content-type": "application/json" });
    res.end("{}");
  };

/** `bytes` of filler, chunked (no Content-Length), so only counting can stop it. */
export const oversized =
  (bytes: number): AnswerWriter =>
  async (a, res) => {
    res.writeHead(a.status, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < bytes && !gone(res); sent += chunk.length) {
      if (!res.write(chunk)) await new Promise((r) => res.once("drain", r).once("close", r));
    }
    if (!gone(res)) res.end();
  };

/** Headers declaring a `bytes`-long body that never comes: only the declared size can refuse it in time. */
export const declaresSize =
  (bytes: number): AnswerWriter =>
  (a, res) => {
    res.writeHead(a.status, { "content-type": "application/json", "content-length": String(bytes) });
    res.flushHeaders();
  };

/** The real answer one byte every `everyMs`: no gap is long, the whole is endless for a test. */
export const dripped =
  (everyMs: number): AnswerWriter =>
  async (a, res) => {
    res.writeHead(a.status, { "content-type": "application/json" });
    for (const byte of Buffer.from(a.body, "utf8")) {
      if (gone(res)) return;
      res.write(Buffer.of(byte));
      await new Promise((r) => setTimeout(r, everyMs));
    }
    if (!gone(res)) res.end();
  };

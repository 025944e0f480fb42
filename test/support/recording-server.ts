/**
 * A small real HTTP server for client tests: binds 127.0.0.1 on port 0, records every request
 * (method, raw path, headers, body) and answers from a script the test controls.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Raw path with query string, as received. */
  path: string;
  /** Lower-case header names. */
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status?: number; body?: unknown; headers?: Record<string, string> }
  /** Destroy the connection after the request arrived, without an answer. */
  | { drop: true }
  /** Never answer (the client's timeout fires). */
  | { hang: true };

export type Responder = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

/** A success envelope. */
export const ok = (data: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body: { success: true, data }, headers });

/** An error body in the contract's nested form. */
export const fail = (status: number, code: string, message = code, extra: { field?: string; details?: Record<string, unknown> } = {}, headers?: Record<string, string>): Reply => ({
  status,
  body: { success: false, error: { code, message, ...extra } },
  headers,
});

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Queue replies, used in order before the responder. */
  next(...replies: Reply[]): void;
  /** Replace the responder used when the queue is empty (default: 200 with data {}). */
  respond(fn: Responder): void;
  close(): Promise<void>;
}

export async function startRecordingServer(responder: Responder = () => ok({})): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  let fallback = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rec: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      const index = requests.push(rec) - 1;
      void Promise.resolve(queue.length ? queue.shift()! : fallback(rec, index)).then((reply) => {
        if ("drop" in reply) {
          req.socket.destroy();
          return;
        }
        if ("hang" in reply) return;
        const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next: (...r) => queue.push(...r),
    respond: (fn) => {
      fallback = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A lying service for hostile tests: a loopback HTTP proxy (127.0.0.1, port 0) in front of a real
 * server (the sandbox) that forwards every request as it is, lets the server act on it (charge,
 * register, ...), and rewrites the answer of the requests a test names: another body, status or
 * content type, or an answer cut off halfway; or writes the answer itself (late, dripped,
 * oversized: test/hostile/answer-writers.ts). What the server did stays true; only the answer lies.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** What the client receives instead of the server's answer. */
export interface Lie {
  status?: number;
  /** The body to send (the server's own when absent). */
  body?: string;
  contentType?: string;
  /** Send the head and half the body, then drop the connection. */
  truncate?: boolean;
}

/** The server's answer, for a rewrite. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface RewriteMatch {
  method: string;
  /** Matched against the request's path (query included). */
  path: RegExp;
  /** How many answers to rewrite (default 1); the rest pass as the server sent them. */
  times?: number;
}

/** `lie` names what to send; `write` sends it itself, over time if it likes (it should stop once `res` is destroyed). */
export type Rewrite = RewriteMatch &
  ({ lie: (answer: Answer) => Lie; write?: never } | { write: (answer: Answer, res: http.ServerResponse) => void | Promise<void>; lie?: never });

/** A request as the proxy received it. */
export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

/** A lie that keeps the server's own success answer but sets one field of its data. */
export const dataWith =
  (field: string, value: unknown) =>
  (answer: { body: string }): Lie => {
    const b = JSON.parse(answer.body) as { data: Record<string, unknown> };
    return { body: JSON.stringify({ ...b, data: { ...b.data, [field]: value } }) };
  };

export interface RewritingProxy {
  url: string;
  /** Every request received, in order. */
  requests: ProxiedRequest[];
  rewrite(r: Rewrite): void;
  /** Rewrites still waiting for their request. */
  pending(): number;
  /** Drops the rewrites still waiting: every answer passes as the server sent it. */
  clear(): void;
  close(): Promise<void>;
}

export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const upstream = new URL(target);
  const rewrites: (Rewrite & { left: number })[] = [];
  const requests: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = req.headers["idempotency-key"];
      requests.push({ method: req.method ?? "", path: req.url ?? "", idempotencyKey: typeof key === "string" ? key : undefined });
      const headers = { ...req.headers, host: upstream.host };
      const fwd = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
        const body: Buffer[] = [];
        up.on("data", (c: Buffer) => body.push(c));
        up.on("end", () => {
          const text = Buffer.concat(body).toString("utf8");
          const r = rewrites.find((w) => w.left > 0 && w.method === req.method && w.path.test(req.url ?? ""));
          if (!r) {
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(text);
            return;
          }
          r.left--;
          const answer: Answer = { status: up.statusCode ?? 502, headers: up.headers, body: text };
          if (r.write) {
            Promise.resolve(r.write(answer, res)).catch(() => res.destroy());
            return;
          }
          const lie = r.lie(answer);
          const out = Buffer.from(lie.body ?? text, "utf8");
          res.writeHead(lie.status ?? up.statusCode ?? 502, { "content-type": lie.contentType ?? "application/json", "content-length": String(out.length) });
          if (!lie.truncate) {
            res.end(out);
            return;
          }
          res.write(out.subarray(0, Math.floor(out.length / 2)));
          res.socket?.destroy();
        });
      });
      fwd.on("error", () => res.destroy());
      fwd.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rewrite: (r) => rewrites.push({ ...r, left: r.times ?? 1 }),
    pending: () => rewrites.reduce((n, r) => n + r.left, 0),
    clear: () => void rewrites.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

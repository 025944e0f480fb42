/**
 * A hostile hop between the client and the sandbox, on 127.0.0.1 port 0: every request goes on to
 * the sandbox (so the sandbox's state and ledger stay the truth), and the answer of a request the
 * test picks comes back mangled: late, truncated, oversized, dripped, relabelled or redirected.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface Upstream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Writes a mangled answer for `upstream` (the sandbox's real answer) to `res`. */
export type Mangle = (upstream: Upstream, res: http.ServerResponse) => void | Promise<void>;

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

export interface HostileProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Mangles the answer of the next request matching `method` and `path` (a substring), `times` times. */
  mangle(method: string, path: string, how: Mangle, times?: number): void;
  close(): Promise<void>;
}

/** Stops writing when the client has gone, so a drip or a hold never outlives its test. */
const gone = (res: http.ServerResponse): boolean => res.destroyed || res.writableEnded;

/** The answer with its headers only, after `ms` (the body follows then, whole). */
export const lateHeaders =
  (ms: number): Mangle =>
  async (up, res) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      res.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (!gone(res)) pass(up, res);
  };

/** The real status and headers with the JSON cut in half (a well-framed message that ends early). */
export const truncated: Mangle = (up, res) => {
  res.writeHead(up.status, { "content-type": "application/json" });
  res.end(up.body.subarray(0, Math.floor(up.body.length / 2)));
};

/** A captive portal's page instead of the answer. */
export const html: Mangle = (_up, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end("<html><body>Please sign in to the network</body></html>");
};

/** 200 with an error body, as a proxy that hides statuses would send. */
export const okWithError: Mangle = (_up, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ success: false, error: { code: "internal_error", message: "upstream failed" } }));
};

/** A redirect to `location` (another host). */
export const redirectTo =
  (location: string): Mangle =>
  (_up, res) => {
    res.writeHead(307, { location, "content-type": "application/json" });
    res.end("{}");
  };

/** `bytes` of JSON-looking filler, chunked (no Content-Length), so only counting can stop it. */
export const oversized =
  (bytes: number): Mangle =>
  async (up, res) => {
    res.writeHead(up.status, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < bytes && !gone(res); sent += chunk.length) {
      if (!res.write(chunk)) await new Promise((r) => res.once("drain", r).once("close", r));
    }
    if (!gone(res)) res.end();
  };

/** Headers declaring a `bytes`-long body that never comes: only the declared size can refuse it in time. */
export const declaresSize =
  (bytes: number): Mangle =>
  (up, res) => {
    res.writeHead(up.status, { "content-type": "application/json", "content-length": String(bytes) });
    res.flushHeaders();
  };

/** The real answer one byte every `everyMs`: no gap is long, the whole is endless for a test. */
export const dripped =
  (everyMs: number): Mangle =>
  async (up, res) => {
    res.writeHead(up.status, { "content-type": "application/json" });
    for (const byte of up.body) {
      if (gone(res)) return;
      res.write(Buffer.of(byte));
      await new Promise((r) => setTimeout(r, everyMs));
    }
    if (!gone(res)) res.end();
  };

function pass(up: Upstream, res: http.ServerResponse): void {
  const headers = { ...up.headers };
  delete headers["transfer-encoding"];
  delete headers.connection;
  res.writeHead(up.status, headers);
  res.end(up.body);
}

function forward(target: URL, req: http.IncomingMessage, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(chunks) }));
        r.on("error", reject);
      },
    );
    up.on("error", reject);
    up.end(body);
  });
}

export async function startHostileProxy(targetUrl: string): Promise<HostileProxy> {
  const target = new URL(targetUrl);
  const requests: ProxiedRequest[] = [];
  const rules: { method: string; path: string; how: Mangle; times: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = req.method ?? "";
      const path = req.url ?? "";
      const key = req.headers["idempotency-key"];
      requests.push({ method, path, idempotencyKey: typeof key === "string" ? key : undefined });
      const rule = rules.find((r) => r.times > 0 && r.method === method && path.includes(r.path));
      if (rule) rule.times--;
      forward(target, req, Buffer.concat(chunks))
        .then((up) => (rule ? rule.how(up, res) : pass(up, res)))
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mangle: (method, path, how, times = 1) => rules.push({ method, path, how, times }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

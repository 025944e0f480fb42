/**
 * Credentials travel only where they are safe, and a request the HTTP stack refuses on this machine
 * is reported as such: plain http to a host that is not loopback is refused before a byte is sent
 * (a dispatcher that would deliver any host to a recording server proves nothing was), a CR/LF in
 * a credential is refused when the client is made, naming the setting and never the value, and a
 * header value refused locally is neither "connection lost" nor retried.
 */
import * as net from "node:net";
import { Agent, type Dispatcher } from "undici";
import { ResellerClient } from "../../api/client";
import { isResellerNetworkError, LocalRequestError } from "../../api/errors";
import { readSettings } from "../../resources/shared/api";
import { startRecordingServer, type RecordingServer } from "../support/recording-server";
import { API_KEY, API_SECRET } from "../api/helpers";

let server: RecordingServer;
/** Connects every host name to the recording server: whatever the client would send to any host lands there. */
let anyHost: Dispatcher;
beforeEach(async () => {
  server = await startRecordingServer();
  const port = Number(new URL(server.url).port);
  anyHost = new Agent({
    connect: (_opts, cb) => {
      const socket = net.connect(port, "127.0.0.1", () => cb(null, socket));
      socket.once("error", (e) => cb(e, null));
    },
  });
});
afterEach(async () => {
  await anyHost.close();
  await server.close();
});

const clientOn = (baseUrl: string, over: { apiKey?: string; apiSecret?: string } = {}) =>
  new ResellerClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET, dispatcher: anyHost, rateLimitLogDir: null, maxRetries: 3, ...over });

describe("plain http only to loopback", () => {
  it("the dispatcher does deliver a request for another host to the recording server (so the refusal below is what stops it)", async () => {
    const res = await anyHost.request({ origin: "http://api.example.com", path: "/api/v1/ping", method: "GET" });
    await res.body.text();
    expect(server.requests.map((r) => r.path)).toEqual(["/api/v1/ping"]);
  });

  it.each(["http://api.example.com", "http://10.0.0.7:8080", "http://128.0.0.1", "http://[::2]", "http://localhost.example.com", "http://127.0.0.1.example.com"])(
    "%s is refused when the client is made, naming the setting and the value; nothing is sent",
    (url) => {
      expect(() => clientOn(url)).toThrow(`baseUrl: ${JSON.stringify(url)} uses plain http to a host that is not this machine`);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each(["http://127.0.0.1", "http://127.8.9.10", "http://[::1]", "http://localhost", "https://api.example.com"])("%s is accepted", async (url) => {
    const c = clientOn(url);
    await expect(c.deleteRecord("example.com", "r1")).resolves.toBeUndefined();
    expect(server.requests).toHaveLength(1);
    await c.close();
  });

  it("the provider host's settings refuse it too, named as the stack config names it", () => {
    const get = (k: string) => ({ baseUrl: "http://api.example.com", apiKey: API_KEY, apiSecret: API_SECRET })[k as "baseUrl"];
    expect(() => readSettings(get, {})).toThrow('reseller:baseUrl: "http://api.example.com" uses plain http to a host that is not this machine');
  });
});

describe("a credential a header cannot carry", () => {
  it.each([
    ["apiSecret", { apiSecret: `${API_SECRET}\r\n` }, "a line break (CR or LF) at position 26"],
    ["apiSecret", { apiSecret: `${API_SECRET.slice(0, 5)}\nX-Injected: 1` }, "a line break (CR or LF) at position 6"],
    ["apiKey", { apiKey: `${API_KEY}\n` }, "a line break (CR or LF) at position 16"],
    ["apiKey", { apiKey: ` ${API_KEY}` }, "a leading or trailing space at position 1"],
    ["apiSecret", { apiSecret: `${API_SECRET}\u0000` }, "a control character"],
    ["apiSecret", { apiSecret: `${API_SECRET}é` }, "a character outside ASCII"],
  ])("%s %j is refused when the client is made, named, never shown; nothing is sent", (setting, over, what) => {
    const e = (() => {
      try {
        clientOn("http://127.0.0.1:1", over);
      } catch (x) {
        return x as Error;
      }
      throw new Error("accepted");
    })();
    expect(e).toMatchObject({ name: "SettingError", setting });
    expect(e.message).toContain(`${setting}: contains ${what}`);
    expect(e.message).not.toContain(API_SECRET.slice(0, 8));
    expect(e.message).not.toContain(API_KEY.slice(0, 8));
    expect(server.requests).toHaveLength(0);
  });

  it("the provider host's settings refuse it at configure, naming reseller:apiSecret", () => {
    const get = (k: string) => ({ baseUrl: "https://api.example.com", apiKey: API_KEY, apiSecret: `${API_SECRET}\r\n` })[k as "baseUrl"];
    let message = "";
    try {
      readSettings(get, {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("reseller:apiSecret: contains a line break (CR or LF)");
    expect(message).not.toContain(API_SECRET);
  });
});

describe("a request refused by the local HTTP stack", () => {
  it("is a LocalRequestError after one try: not a network error, not retried, nothing sent", async () => {
    const c = new ResellerClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, rateLimitLogDir: null, maxRetries: 3, sleep: async () => {} });
    try {
      // The caller's Idempotency-Key is sent as a header; a line break in it is refused by undici itself.
      const e = await c.register({ domain: "example.com", years: 1 } as never, { idempotencyKey: "rp1-key\r\nX-Evil: 1" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(LocalRequestError);
      expect(isResellerNetworkError(e)).toBe(false);
      expect((e as Error).message).toMatch(/not sent, refused by the local HTTP stack before sending \(UND_ERR_INVALID_ARG\); nothing reached the service/);
      expect((e as Error).message).not.toContain(API_SECRET);
      expect(server.requests).toHaveLength(0);
    } finally {
      await c.close();
    }
  });
});

/**
 * The sandbox's operator interface (/_sandbox/: state with contacts and auth codes, reset, the
 * clock) against a web page: a page that rebinds its own name to 127.0.0.1 sends that name as Host,
 * a page's fetch or form sends its Origin, and a form posts text/plain or form data without asking
 * first. Each is refused and changes nothing; the same request as Node, curl and SandboxOperator
 * send it is answered. Over real HTTP, with the Host and Origin headers written by hand.
 */
import { request } from "node:http";
import { SandboxOperator, startSandbox, type SandboxHandle } from "../../sandbox/index";

let sb: SandboxHandle;
beforeEach(async () => {
  sb = await startSandbox({ port: 0 });
});
afterEach(() => sb.close());

/** One operator request over node:http, every header as given (fetch would set Host itself). */
function operatorCall(method: string, path: string, headers: Record<string, string>, body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: sb.port, method, path: `/_sandbox/${path}`, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const own = (): string => `127.0.0.1:${sb.port}`;
const balance = (): Promise<unknown> => new SandboxOperator(sb.url).settings().then((s) => s.balance);

test("a Host that is not a loopback name (DNS rebinding) gets 403 and neither the state nor a reset", async () => {
  for (const host of [`attacker.example:${sb.port}`, "attacker.example", `localhost.attacker.example:${sb.port}`, "evil.example@127.0.0.1", ""]) {
    const read = await operatorCall("GET", "state", { Host: host });
    expect([host, read.status]).toEqual([host, 403]);
    expect(read.text).not.toContain("auth_code");
    expect(read.text).not.toContain("registrant");
  }
  await new SandboxOperator(sb.url).settings({ balance: "12.34" });
  expect((await operatorCall("POST", "reset", { Host: `rebound.example:${sb.port}` })).status).toBe(403);
  expect(await balance()).toBe("12.34");
  // Control: the same requests addressed to a loopback name are answered.
  for (const host of [own(), `localhost:${sb.port}`, `[::1]:${sb.port}`, "127.0.0.1"]) expect([host, (await operatorCall("GET", "state", { Host: host })).status]).toEqual([host, 200]);
  expect((await operatorCall("POST", "reset", { Host: own() })).status).toBe(200);
  expect(await balance()).not.toBe("12.34");
});

test("an Origin other than the sandbox's own (a web page's fetch or form) gets 403 and changes nothing", async () => {
  await new SandboxOperator(sb.url).settings({ balance: "12.34" });
  for (const origin of ["http://attacker.example", "null", `http://localhost:${sb.port}`, `https://${own()}`, `http://127.0.0.1:${sb.port + 1}`]) {
    expect([origin, (await operatorCall("POST", "reset", { Host: own(), Origin: origin })).status]).toEqual([origin, 403]);
    expect([origin, (await operatorCall("GET", "state", { Host: own(), Origin: origin })).status]).toEqual([origin, 403]);
  }
  expect(await balance()).toBe("12.34");
  // Control: the sandbox's own origin, and none at all, are answered.
  expect((await operatorCall("GET", "settings", { Host: own(), Origin: `http://${own()}` })).status).toBe(200);
  expect((await operatorCall("POST", "reset", { Host: own() })).status).toBe(200);
  expect(await balance()).not.toBe("12.34");
});

test("a body that is not application/json (what a cross-site form can send unasked) gets 415 and changes nothing", async () => {
  const patch = JSON.stringify({ balance: "99.99" });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
    const headers: Record<string, string> = { Host: own(), ...(type ? { "Content-Type": type } : {}) };
    const r = await operatorCall("PATCH", "settings", headers, patch);
    expect([type, r.status]).toEqual([type, 415]);
    expect(r.text).toContain("application/json");
  }
  expect(await balance()).not.toBe("99.99");
  // Control: the same body as JSON is taken, with or without a charset.
  expect((await operatorCall("PATCH", "settings", { Host: own(), "Content-Type": "application/json; charset=utf-8" }, patch)).status).toBe(200);
  expect(await balance()).toBe("99.99");
});

/**
 * A captured signed request replayed at the sandbox after a restart on the same data file: the
 * sandbox keeps the nonces it has seen beside its data file, so the replay is refused as it was
 * before the restart, and the EPP code it would have reissued stays as it was.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { makeApi, nextNonce } from "../sandbox/signed-fetch";

const KEY = "nonce-key-51d0";
const SECRET = "nonce-secret-8c2e";
const start = (dataFile: string): Promise<SandboxHandle> => startSandbox({ port: 0, dataFile, credentials: [{ key: KEY, secret: SECRET }] });
const authCodeIn = (file: string): string => JSON.parse(readFileSync(file, "utf8")).domains["demo-shop.net"].authCode;

test("a signed epp-code POST captured before a restart is refused after it (nonce_reused) and issues no new code", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hostile-nonces-"));
  const file = join(dir, "state.json");
  // The captured request: its timestamp and nonce, signed once, sent again as they were.
  const captured = { timestampMs: Date.now(), nonce: nextNonce() };
  let sb = await start(file);
  try {
    const first = await makeApi(sb.url, sb.credentials)("POST", "/domains/demo-shop.net/epp-code", {}, captured);
    expect(first.status).toBe(200);
    const code = first.body.data.auth_code as string;
    expect(authCodeIn(file)).toBe(code);
    // Control: before the restart the replay is refused.
    expect((await makeApi(sb.url, sb.credentials)("POST", "/domains/demo-shop.net/epp-code", {}, captured)).body.error?.code).toBe("nonce_reused");
    await sb.close();

    sb = await start(file);
    const replay = await makeApi(sb.url, sb.credentials)("POST", "/domains/demo-shop.net/epp-code", {}, captured);
    expect([replay.status, replay.body.error?.code]).toEqual([401, "nonce_reused"]);
    expect(authCodeIn(file)).toBe(code);
    // Control: a fresh request after the restart is answered, with a new code.
    const fresh = await makeApi(sb.url, sb.credentials)("POST", "/domains/demo-shop.net/epp-code", {});
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.auth_code).not.toBe(code);
    // The nonce file names neither the key nor the nonce.
    const nonces = readFileSync(`${file}.nonces`, "utf8");
    for (const needle of [KEY, SECRET, captured.nonce]) expect(nonces).not.toContain(needle);
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a reset forgets the nonces, in the file too (the seed is back, and so may be a request)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hostile-nonces-"));
  const file = join(dir, "state.json");
  const captured = { timestampMs: Date.now(), nonce: nextNonce() };
  let sb = await start(file);
  try {
    expect((await makeApi(sb.url, sb.credentials)("GET", "/ping", undefined, captured)).status).toBe(200);
    sb.operator.reset();
    await sb.close();
    sb = await start(file);
    expect((await makeApi(sb.url, sb.credentials)("GET", "/ping", undefined, captured)).status).toBe(200);
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

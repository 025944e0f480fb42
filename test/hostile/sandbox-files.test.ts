/**
 * The sandbox on a shared machine: its data file (contacts, EPP codes) is its owner's alone, a link
 * planted at its temp file's name is not followed, and its request log names a credential by a
 * fingerprint, never by the key or the secret (in process and through the HTTP operator).
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentialFingerprint, SandboxOperator, startSandbox } from "../../sandbox/index";
import { CONTACT, makeApi } from "../sandbox/signed-fetch";

const KEY = "files-key-6b1f0c";
const SECRET = "files-secret-93d2e7a1c4";
const order = (domain: string) => ({ domain, years: 1, contacts: { registrant: CONTACT } });
const modeOf = (file: string): number => statSync(file).mode & 0o777;

test("the data file is written 0600 under a permissive umask, also over a world-readable one, and a link at the temp name is not followed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hostile-sandbox-"));
  const file = join(dir, "state.json");
  const decoy = join(dir, "decoy.txt");
  writeFileSync(decoy, "untouched");
  const umask = process.umask(0);
  const sb = await startSandbox({ port: 0, dataFile: file, processingDelaySeconds: 0, credentials: [{ key: KEY, secret: SECRET }] });
  try {
    const api = makeApi(sb.url, sb.credentials);
    expect((await api("POST", "/domains/register", order("files-one.com"), { idempotencyKey: "files-1" })).status).toBe(201);
    expect(readFileSync(file, "utf8")).toContain(CONTACT.email); // what makes it sensitive is in it
    expect(modeOf(file)).toBe(0o600);

    // Someone widened it, and planted a link where the next temp file goes: the next write narrows it and leaves the link's target alone.
    chmodSync(file, 0o644);
    symlinkSync(decoy, `${file}.${process.pid}.tmp`);
    expect((await api("POST", "/domains/register", order("files-two.com"), { idempotencyKey: "files-2" })).status).toBe(201);
    expect(modeOf(file)).toBe(0o600);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(file, "utf8")).domains["files-two.com"].stage).toBe("active");
    expect(readFileSync(decoy, "utf8")).toBe("untouched");
  } finally {
    process.umask(umask);
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the request log holds a fingerprint of the key, never the key or the secret, in process and over the operator interface", async () => {
  const sb = await startSandbox({ port: 0, credentials: [{ key: KEY, secret: SECRET }] });
  try {
    const api = makeApi(sb.url, sb.credentials);
    expect((await api("GET", "/ping")).status).toBe(200);
    expect((await api("GET", "/ping", undefined, { secret: "wrong-secret-value" })).status).toBe(401);
    const local = sb.operator.requests();
    const remote = await new SandboxOperator(sb.url).requests();
    expect(remote).toEqual(local);
    // Control: the log does tell which credential sent each request.
    expect(local.map((r) => [r.status, r.credential])).toEqual([
      [200, credentialFingerprint(KEY)],
      [401, null],
    ]);
    const text = JSON.stringify(remote);
    for (const needle of [KEY, SECRET, "wrong-secret-value"]) expect(text).not.toContain(needle);
  } finally {
    await sb.close();
  }
});

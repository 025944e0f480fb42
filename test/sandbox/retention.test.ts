/**
 * What the sandbox remembers, and for how long (contract: idempotency.retentionSeconds,
 * signing.nonceRetentionSeconds), driven by an injected clock that the test moves by hand.
 */
import { DEFAULT_CONTRACT } from "../../api/contract";
import * as V from "../../api/views";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { CONTACT, makeApi, type Api } from "./signed-fetch";

const code = (r: { body: unknown }) => V.ErrorBody.parse(r.body).error.code;

describe("retention on an injected clock", () => {
  let clock = Date.UTC(2031, 0, 10, 9);
  let sb: SandboxHandle;
  let api: Api;
  const at = () => ({ timestampMs: clock });
  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 100_000, processingDelaySeconds: 0, now: () => clock });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  it("replays an Idempotency-Key for the retention time, then treats it as new", async () => {
    const body = { domain: "kept-key.com", years: 1, contacts: { registrant: CONTACT } };
    const first = await api("POST", "/domains/register", body, { idempotencyKey: "kept-key", ...at() });
    expect(first.status).toBe(201);
    const charges = sb.operator.ledger().length;

    clock += (DEFAULT_CONTRACT.idempotency.retentionSeconds - 1) * 1000;
    const replay = await api("POST", "/domains/register", body, { idempotencyKey: "kept-key", ...at() });
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(replay.body).toEqual(first.body);

    clock += 2000;
    const late = await api("POST", "/domains/register", body, { idempotencyKey: "kept-key", ...at() });
    // Forgotten: processed as a new order, which finds the name taken (by the first one) and charges nothing.
    expect([late.status, code(late), late.headers.get("idempotent-replayed")]).toEqual([409, "domain_unavailable", null]);
    expect(sb.operator.ledger().length).toBe(charges);
  });

  it("refuses a nonce again within its retention, and accepts it after", async () => {
    const nonce = "retained-nonce-0001";
    expect((await api("GET", "/domains/demo-shop.net", undefined, { nonce, ...at() })).status).toBe(200);
    clock += (DEFAULT_CONTRACT.signing.nonceRetentionSeconds - 1) * 1000;
    const again = await api("GET", "/domains/demo-shop.net", undefined, { nonce, ...at() });
    expect([again.status, code(again)]).toEqual([401, "nonce_reused"]);
    clock += 2000;
    expect((await api("GET", "/domains/demo-shop.net", undefined, { nonce, ...at() })).status).toBe(200);
  });
});

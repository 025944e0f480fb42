/**
 * All-or-nothing without a deep clone: a checkpoint restores every kind of change a handler makes
 * (records pushed, replaced and filtered out, zone and domain fields, ledger, counters, idempotent
 * answers stored and dropped), and over HTTP a refused record change leaves the zone as it was.
 */
import { checkpoint } from "../../sandbox/checkpoint";
import { startSandbox } from "../../sandbox/index";
import { ResellerClient } from "../../api/client";

test("a checkpoint gives back the state as it was, whatever was changed after it", async () => {
  const sb = await startSandbox({ port: 0 });
  try {
    const state = sb.operator.state();
    state.idempotency.stored = { fingerprint: "f1", status: 201, body: { id: "ord_1" }, storedAt: 1 };
    const original = structuredClone(state);
    const restore = checkpoint(state);
    const z = state.zones["demo-reseller.com"];
    z.records.push({ ...z.records[0], id: "rec_new" });
    z.records = z.records.map((r, i) => (i === 1 ? { ...r, ttl: 999 } : r));
    z.records = z.records.filter((_r, i) => i !== 2);
    z.status = "pending_nameserver";
    state.zones["demo-labs.io"] = { domain: "demo-labs.io", status: "active", records: [] };
    state.domains["demo-shop.net"].locked = true;
    state.ledger.push({ ...(state.ledger[0] ?? ({} as never)), domain: "x.com" });
    state.counters.record += 5;
    state.account.balance -= 100;
    delete state.idempotency.stored;
    state.idempotency.later = { fingerprint: "f2", status: 201, body: { id: "ord_2" }, storedAt: 2 };
    expect(state).not.toEqual(original);
    expect(restore()).toEqual(original);
  } finally {
    await sb.close();
  }
});

test("over HTTP, a TTL change replaces both sibling entries, and a refused change leaves the zone unchanged", async () => {
  const sb = await startSandbox({ port: 0, requestsPerMinute: 100_000 });
  const c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, rateLimitLogDir: null });
  try {
    const a = await c.createRecord("demo-reseller.com", { type: "TXT", name: "cp", content: "one", ttl: 300 });
    await c.createRecord("demo-reseller.com", { type: "TXT", name: "cp", content: "two", ttl: 300 });
    const before = sb.operator.state().zones["demo-reseller.com"];
    // A TTL change applies to both siblings; then a duplicate content is refused and nothing changes.
    await c.updateRecord("demo-reseller.com", a.id, { ttl: 600 });
    const mid = sb.operator.state().zones["demo-reseller.com"].records.filter((r) => r.name === "cp");
    expect(mid.map((r) => r.ttl)).toEqual([600, 600]);
    await expect(c.updateRecord("demo-reseller.com", a.id, { content: "two" })).rejects.toMatchObject({ status: 422 });
    const after = sb.operator.state().zones["demo-reseller.com"];
    expect(after.records.length).toBe(before.records.length);
    expect(after.records.filter((r) => r.name === "cp").map((r) => [r.content, r.ttl])).toEqual([
      ["one", 600],
      ["two", 600],
    ]);
  } finally {
    await c.close();
    await sb.close();
  }
});

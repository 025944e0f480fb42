/**
 * The shared lists behind coalesced reads (resources/kit/read-cache.ts): concurrent readers join one
 * list in flight (one call per page against the sandbox, whatever the parallelism), a list is dated
 * from its arrival, each id is served once per list, and a write drops the list.
 */
import { ResellerClient } from "../../api/client";
import { LIST_LIFE_MS, RECORD_CACHE_MS, SharedList } from "../../resources/kit/read-cache";
import { startSandbox } from "../../sandbox/index";

test("64 concurrent reads of one zone make one call per page of its records", async () => {
  const contract = { paging: { perPage: 20 } };
  const sb = await startSandbox({ port: 0, requestsPerMinute: 1_000_000, contract });
  const c = new ResellerClient({ baseUrl: sb.url, apiKey: sb.credentials.key, apiSecret: sb.credentials.secret, requestsPerMinute: 1_000_000, contract, rateLimitLogDir: null });
  try {
    for (let i = 0; i < 90; i++) await c.createRecord("demo-reseller.com", { type: "TXT", name: `p${i}`, content: `v${i}`, ttl: 300 });
    const all = await c.listRecords("demo-reseller.com");
    const pages = Math.ceil(all.length / 20);
    sb.operator.clearRequests();
    const list = new SharedList(() => c.listRecords("demo-reseller.com"), (r) => r.id);
    const got = await Promise.all(all.slice(0, 64).map((r) => list.get(r.id)));
    expect(got.map((r) => r?.id)).toEqual(all.slice(0, 64).map((r) => r.id));
    expect(sb.operator.requests()).toHaveLength(pages);
  } finally {
    await c.close();
    await sb.close();
  }
});

/** A list on a hand-moved clock whose fetches the test answers (`answer`) and counts (`calls`). */
function controlledList() {
  const c = {
    t: 0,
    calls: 0,
    answer: (_items: { id: string }[]): void => undefined,
  };
  const list = new SharedList(
    () => {
      c.calls++;
      return new Promise<{ id: string }[]>((r) => (c.answer = r));
    },
    (x) => x.id,
    () => c.t,
  );
  return { c, list, answer: (items: { id: string }[]) => c.answer(items) };
}

test("a list is dated from when it arrived, serves each id once, and a drop forgets it", async () => {
  const { c, list, answer } = controlledList();
  const a = list.all();
  const b = list.get("x");
  c.t += 3 * RECORD_CACHE_MS; // the answer takes longer than the cache's life
  answer([{ id: "x" }, { id: "y" }]);
  expect(await a).toHaveLength(2);
  expect(await b).toEqual({ id: "x" });
  // Right after arrival: still fresh, no second call.
  await list.all();
  expect(await list.get("y")).toEqual({ id: "y" });
  expect(c.calls).toBe(1);
  // A second read of "x" (a later refresh by the same host) asks again.
  const again = list.get("x");
  answer([{ id: "x" }]);
  expect(await again).toEqual({ id: "x" });
  expect(c.calls).toBe(2);
  expect(await list.get("gone")).toBeUndefined();
  expect(c.calls).toBe(2);
  list.drop();
  const fresh = list.all();
  answer([]);
  expect(await fresh).toEqual([]);
  expect(c.calls).toBe(3);
});

test("adoptions share one list: readers at once and one after another, each served once; a second read by one reader, or a list past its life, asks again", async () => {
  const { c, list, answer } = controlledList();
  const atOnce = ["urn:a", "urn:b", "urn:c"].map((u) => list.allFor(u));
  answer([{ id: "r1" }, { id: "r2" }]);
  for (const got of await Promise.all(atOnce)) expect(got.map((x) => x.id)).toEqual(["r1", "r2"]);
  expect(c.calls).toBe(1);
  // Later readers of the same command, past the whole-list cache's few seconds: still that list.
  c.t += 10 * RECORD_CACHE_MS;
  expect((await list.allFor("urn:d")).map((x) => x.id)).toEqual(["r1", "r2"]);
  expect(c.calls).toBe(1);
  // The same resource reading again (a retried create) sees the service as it is now.
  const again = list.allFor("urn:a");
  answer([{ id: "r1" }]);
  expect((await again).map((x) => x.id)).toEqual(["r1"]);
  expect(c.calls).toBe(2);
  // A list older than LIST_LIFE_MS serves nobody.
  c.t += LIST_LIFE_MS;
  const late = list.allFor("urn:e");
  answer([]);
  expect(await late).toEqual([]);
  expect(c.calls).toBe(3);
});

/**
 * The shared lists behind coalesced reads (resources/read-cache.ts): concurrent readers join one
 * list in flight (one call per page against the sandbox, whatever the parallelism), a list is dated
 * from its arrival, each id is served once per list, and a write drops the list.
 */
import { ResellerClient } from "../../provider/client";
import { SharedList, RECORD_CACHE_MS } from "../../resources/read-cache";
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

test("a list is dated from when it arrived, serves each id once, and a drop forgets it", async () => {
  let t = 0;
  let calls = 0;
  let answer: (items: { id: string }[]) => void = () => undefined;
  const list = new SharedList(
    () => {
      calls++;
      return new Promise<{ id: string }[]>((r) => (answer = r));
    },
    (x) => x.id,
    () => t,
  );
  const a = list.all();
  const b = list.get("x");
  t += 3 * RECORD_CACHE_MS; // the answer takes longer than the cache's life
  answer([{ id: "x" }, { id: "y" }]);
  expect(await a).toHaveLength(2);
  expect(await b).toEqual({ id: "x" });
  // Right after arrival: still fresh, no second call.
  await list.all();
  expect(await list.get("y")).toEqual({ id: "y" });
  expect(calls).toBe(1);
  // A second read of "x" (a later refresh by the same host) asks again.
  const again = list.get("x");
  answer([{ id: "x" }]);
  expect(await again).toEqual({ id: "x" });
  expect(calls).toBe(2);
  expect(await list.get("gone")).toBeUndefined();
  expect(calls).toBe(2);
  list.drop();
  const fresh = list.all();
  answer([]);
  expect(await fresh).toEqual([]);
  expect(calls).toBe(3);
});

/**
 * The host's record registry (resources/kit/ttl-registry.ts): TTL clashes of one name and type, the
 * records at one name, a record that moves (renamed) or goes (deleted). It is asked once per
 * record check, so it is kept by name; these pin its answers.
 */
import { TtlRegistry } from "../../../resources/kit/ttl-registry";

test("a second TTL at the same name and type is a clash naming the first; another type or name is not", () => {
  const r = new TtlRegistry();
  expect(r.register("urn:a", "example.com", "www", "A", 300)).toBeUndefined();
  expect(r.register("urn:b", "example.com", "www", "A", 300)).toBeUndefined();
  expect(r.register("urn:c", "example.com", "www", "A", 600)).toEqual({ urn: "urn:a", ttl: 300 });
  expect(r.register("urn:d", "example.com", "www", "AAAA", 600)).toBeUndefined();
  expect(r.register("urn:e", "example.com", "api", "A", 600)).toBeUndefined();
  expect(r.register("urn:f", "example.org", "www", "A", 600)).toBeUndefined();
});

test("atName gives the other records at that name of that zone, every type, and nothing of a longer name", () => {
  const r = new TtlRegistry();
  r.register("urn:a", "example.com", "www", "A", 300);
  r.register("urn:b", "example.com", "www", "TXT", 300);
  r.register("urn:c", "example.com", "www2", "A", 300);
  r.register("urn:d", "example.org", "www", "A", 300);
  expect(r.atName("urn:x", "example.com", "www").sort((a, b) => a.urn.localeCompare(b.urn))).toEqual([
    { urn: "urn:a", type: "A" },
    { urn: "urn:b", type: "TXT" },
  ]);
  expect(r.atName("urn:a", "example.com", "www")).toEqual([{ urn: "urn:b", type: "TXT" }]);
  expect(r.atName("urn:x", "example.com", "ww")).toEqual([]);
});

test("a record checked again under another name or type leaves its old place; a deleted one leaves too", () => {
  const r = new TtlRegistry();
  r.register("urn:a", "example.com", "www", "A", 300);
  r.register("urn:a", "example.com", "api", "A", 600);
  expect(r.atName("urn:x", "example.com", "www")).toEqual([]);
  expect(r.register("urn:b", "example.com", "www", "A", 900)).toBeUndefined();
  r.register("urn:a", "example.com", "api", "CNAME", 600);
  expect(r.atName("urn:x", "example.com", "api")).toEqual([{ urn: "urn:a", type: "CNAME" }]);
  r.unregister("urn:a");
  r.unregister(undefined);
  expect(r.atName("urn:x", "example.com", "api")).toEqual([]);
  expect(r.register("urn:c", "example.com", "api", "CNAME", 60)).toBeUndefined();
});

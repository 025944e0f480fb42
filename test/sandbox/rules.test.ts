/** sandbox/rules.ts: which logged requests only read (what a preview may send). */
import { isReadRequest } from "../../sandbox/rules";

test("a read is a GET or one of the read-only POSTs (availability, check, pricing); anything else is not", () => {
  const read = (method: string, path: string) => isReadRequest({ method, path });
  expect(read("GET", "/api/v1/dns/zones?page=1&per_page=500")).toBe(true);
  expect(read("POST", "/api/v1/pricing")).toBe(true);
  expect(read("POST", "/api/v1/domains/check")).toBe(true);
  expect(read("POST", "/api/v1/domains/availability")).toBe(true);
  expect(read("POST", "/api/v1/domains/register")).toBe(false);
  expect(read("POST", "/api/v1/dns/zones/shop.example/check")).toBe(false);
  expect(read("PUT", "/api/v1/domains/shop.example/lock")).toBe(false);
  expect(read("DELETE", "/api/v1/dns/zones/shop.example")).toBe(false);
  expect(isReadRequest({ method: "POST", path: "/v2/pricing" }, "/v2")).toBe(true);
});

/**
 * The years preview prices an add-on for (resources/kit/price-guard.ts addonYears) are the years the
 * sandbox charges it for, read from the same domain view, on the term's anniversary too.
 */
import { parseAmount } from "../../api/money";
import * as V from "../../api/views";
import { addonYears } from "../../resources/kit/price-guard";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";
import { PRIVACY_PRICE_PER_YEAR } from "../../sandbox/state";
import { CONTACT, makeApi, type Api } from "../sandbox/signed-fetch";

describe("an add-on's years: preview and sandbox", () => {
  // Registered late in the day (23:00 UTC), so its expiry date starts 23 hours before it expires.
  let t = Date.parse("2026-03-10T23:00:00Z");
  let sb: SandboxHandle;
  let api: Api;
  const call: Api = (method, path, body, opts = {}) => api(method, path, body, { timestampMs: t, ...opts });
  beforeAll(async () => {
    sb = await startSandbox({ requestsPerMinute: 10000, processingDelaySeconds: 0, now: () => t });
    api = makeApi(sb.url, sb.credentials);
  });
  afterAll(() => sb.close());

  test.each([
    ["on the anniversary, before the hour of registration", "2027-03-10T12:00:00Z", 2],
    ["on the anniversary, after it", "2027-03-11T00:00:00Z", 1],
    ["the day it was registered", "2026-03-11T01:00:00Z", 2],
  ])("%s", async (_label, at, years) => {
    t = Date.parse("2026-03-10T23:00:00Z");
    const domain = `addon-years-${years}-${at.slice(0, 10)}.com`;
    const reg = await call("POST", "/domains/register", { domain, years: 2, contacts: { registrant: CONTACT } }, { idempotencyKey: `reg-${domain}` });
    expect(reg.status).toBe(201);
    t = Date.parse(at);
    const info = V.DomainInfo.parse((await call("GET", `/domains/${domain}`)).body.data);
    const predicted = addonYears(info, undefined, t);
    const bought = await call("POST", `/domains/${domain}/privacy`, {}, { idempotencyKey: `privacy-${domain}` });
    expect(bought.status).toBe(201);
    const charged = parseAmount("charged", V.PrivacyOrder.parse(bought.body.data).charged, 2).minor;
    expect(charged).toBe(BigInt(PRIVACY_PRICE_PER_YEAR * years));
    expect(predicted).toBe(years);
  });

  test("without a timestamp the expiry date counts; without a live domain the years bought", () => {
    const now = Date.parse("2027-03-10T12:00:00Z");
    expect(addonYears({ expiry_date: "2028-03-10" }, undefined, now)).toBe(1);
    expect(addonYears({ expiry_date: "2028-03-11" }, undefined, now)).toBe(2);
    expect(addonYears(undefined, 3, now)).toBe(3);
    expect(addonYears(undefined, undefined, now)).toBe(1);
  });
});

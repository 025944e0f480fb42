/** The settings' shape rules (api/settings.ts), pure: loopback, URLs, numbers. Credentials: test/hostile/credentials.test.ts. */
import { baseUrlProblem, checkConnectionSettings, isLoopbackHost, parseDecimalSetting } from "../../api/settings";

const ok = { baseUrl: "https://api.example.com", apiKey: "key_1", apiSecret: "s3cret value" };

it("loopback is 127.0.0.0/8, ::1 and localhost only", () => {
  for (const h of ["127.0.0.1", "127.255.0.9", "[::1]", "[::ffff:7f00:1]", "localhost", "LOCALHOST"]) expect([h, isLoopbackHost(h)]).toEqual([h, true]);
  for (const h of ["128.0.0.1", "10.0.0.1", "[::2]", "[::ffff:a00:1]", "localhost.", "localhost.example.com", "example.com", "0.0.0.0"]) expect([h, isLoopbackHost(h)]).toEqual([h, false]);
});

it("a base URL needs a scheme, no credentials, no query", () => {
  expect(baseUrlProblem("api.example.com")).toMatch(/is not an http\(s\) URL/);
  expect(baseUrlProblem("ftp://api.example.com")).toMatch(/is not an http\(s\) URL/);
  expect(baseUrlProblem("https://u:hunter2@api.example.com")).toMatch(/^"https:\/\/\(secret\)@api.example.com" carries a user name or password/);
  expect(baseUrlProblem("https://api.example.com/?x=1")).toMatch(/has a query or fragment/);
  expect(baseUrlProblem("https://api.example.com/base")).toBeUndefined();
  expect(baseUrlProblem("http://127.1:8080")).toBeUndefined(); // the URL parser reads 127.1 as 127.0.0.1
});

it("numbers: positive, and a timeout a timer can hold; text settings are plain decimals", () => {
  expect(() => checkConnectionSettings({ ...ok, timeoutMs: 0 })).toThrow("timeoutMs: 0 is not a positive number");
  expect(() => checkConnectionSettings({ ...ok, timeoutMs: 2 ** 31 })).toThrow(/timeoutMs: 2147483648 ms is longer than a timer can wait/);
  expect(() => checkConnectionSettings({ ...ok, requestsPerMinute: NaN })).toThrow("requestsPerMinute: NaN is not a positive number");
  expect(checkConnectionSettings({ ...ok, timeoutMs: 30_000, requestsPerMinute: 60 }).origin).toBe("https://api.example.com");
  for (const t of ["", " ", "0x1e", "1e3", "-5", "0", "Infinity"]) expect(() => parseDecimalSetting("reseller:timeoutSeconds", t)).toThrow(`reseller:timeoutSeconds: ${JSON.stringify(t)} is not a positive number`);
  expect(parseDecimalSetting("reseller:timeoutSeconds", "2.5")).toBe(2.5);
});

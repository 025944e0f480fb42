/**
 * Messages a user reads: a request that never left (connection refused) says so and that nothing
 * was charged, through the provider host; hints name the user's settings and inputs.
 */
import * as net from "node:net";
import { startProviderHost, type ProviderHost } from "../../../engine/host";
import { ResellerApiError, ResellerNetworkError } from "../../../provider/errors";
import { contact, Managed, ROOT, type Env } from "./harness";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

let host: ProviderHost;
afterAll(async () => host?.close());

test("a register whose connection is refused says it never reached the service and nothing was charged", async () => {
  host = await startProviderHost({ cwd: ROOT, env: { RESELLER_API_KEY: undefined, RESELLER_API_SECRET: undefined, RESELLER_BASE_URL: undefined } });
  await host.configure({ "reseller:baseUrl": `http://127.0.0.1:${await closedPort()}`, "reseller:apiKey": "k", "reseller:apiSecret": "s" });
  const env = { host } as unknown as Env;
  const err = await new Managed(env, "Domain", "refused").up({ domain: "refused-shop.com", contacts: { registrant: contact } }).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(/the request never reached the service after \d+ attempt\(s\) \(connection failed \(ECONNREFUSED\)\), so nothing was changed or charged\. Check reseller:baseUrl/);
  expect(err?.message).not.toMatch(/may have been applied/);
});

test("hints name reseller:timeoutSeconds and the Pulumi input (authCode), not the client's option or the service's field", () => {
  const ctx = { method: "POST", template: "/domains/transfer", path: "/api/v1/domains/transfer" };
  expect(new ResellerNetworkError(ctx, "no answer in time (UND_ERR_HEADERS_TIMEOUT)", 4).message).toContain("raise reseller:timeoutSeconds");
  const invalid = ResellerApiError.from(422, { error: { code: "validation_error", message: "auth code malformed", field: "auth_code" } }, ctx);
  expect(invalid.message).toContain("Fix the input authCode (the service's field auth_code) and retry.");
  const street = ResellerApiError.from(422, { error: { code: "validation_error", message: "too long", field: "contacts.tech.address_line_1" } }, ctx);
  expect(street.message).toContain("Fix the input contacts.tech.addressLine1 (the service's field contacts.tech.address_line_1) and retry.");
  const city = ResellerApiError.from(422, { error: { code: "validation_error", message: "too long", field: "contacts.tech.city" } }, ctx);
  expect(city.message).toContain('Fix the input field "contacts.tech.city" and retry.');
  const notFound = ResellerApiError.from(404, { error: { code: "not_found", message: "no route" } }, ctx);
  expect(notFound.message).toContain("If every call answers 404, reseller:baseUrl is wrong: it is the scheme and host only");
});

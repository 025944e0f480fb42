/**
 * The hostile money tests' setup: a sandbox, the SDK's provider host, and a rewriting proxy in
 * front of the sandbox (test/support/rewriting-proxy.ts) that the host is configured to call.
 */
import { isProviderHostError } from "../../dev/engine/host";
import { ResellerClient } from "../../api/client";
import { startEnv, type Env } from "../resources/lifecycle/harness";
import { startRewritingProxy, type RewritingProxy } from "../support/rewriting-proxy";

export interface LyingService {
  env: Env;
  proxy: RewritingProxy;
}

/** Starts one for the file (beforeAll) and stops it (afterAll); read it inside the tests. `config`: more stack config for the host. */
export function lyingService(config: Record<string, string> = {}): LyingService {
  const s = {} as LyingService;
  beforeAll(async () => {
    s.env = await startEnv();
    s.proxy = await startRewritingProxy(s.env.sandbox.url);
    await s.env.host.configure({ ...s.env.config, ...config, "reseller:baseUrl": s.proxy.url });
  });
  afterAll(async () => {
    await s.proxy?.close();
    await s.env?.close();
  });
  return s;
}

/** The provider's error of an up that must fail (its message, and the id a partial failure carries). */
export async function failureOf(run: Promise<unknown>): Promise<{ message: string; id?: string }> {
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isProviderHostError(e)) throw e ?? new Error("the up did not fail");
  return e;
}

/** A client of the test's own that calls through the proxy (made in beforeAll, closed in afterAll); read it inside the tests. */
export function clientThroughProxy(s: LyingService): { client: ResellerClient } {
  const held = {} as { client: ResellerClient };
  beforeAll(() => {
    const { key, secret } = s.env.sandbox.credentials;
    held.client = new ResellerClient({ baseUrl: s.proxy.url, apiKey: key, apiSecret: secret, requestsPerMinute: 100_000, rateLimitLogDir: null });
  });
  afterAll(() => held.client?.close());
  return held;
}

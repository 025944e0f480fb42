/** A sandbox and a client on one virtual clock: shared by the tests and the bench. */
import { ResellerClient } from "../../api/client";
import type { Clock } from "../../api/clock";
import { startSandbox, type SandboxHandle } from "../../sandbox/index";

/**
 * A sandbox and a client of it sharing `clock` (service and caller on one virtual time: the client
 * signs and paces by it, the sandbox checks signatures, counts its limit and processes orders by it).
 */
export async function sandboxOnClock(clock: Clock, limitPerMinute: number, processingDelaySeconds: number): Promise<{ sandbox: SandboxHandle; client: ResellerClient }> {
  const sandbox = await startSandbox({ port: 0, now: () => clock.now(), requestsPerMinute: limitPerMinute, processingDelaySeconds });
  const client = new ResellerClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.credentials.key,
    apiSecret: sandbox.credentials.secret,
    requestsPerMinute: limitPerMinute,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    rateLimitLogDir: null,
  });
  return { sandbox, client };
}

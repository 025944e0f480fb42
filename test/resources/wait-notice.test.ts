/**
 * What the provider host says when requests wait for the rate limit (resources/host/wait-notice.ts):
 * the real client (its request loop and the credential's send window) on a virtual clock against a
 * real HTTP server, its every wait told to the host's notices, whose lines are kept with the time
 * they were said. A long queue is said as it begins to wait, with the reason and how long the last
 * request waits; a stretch of short waits, one request after another, once they add up; each once.
 */
import type { ResellerClient } from "../../api/client";
import { waitNotices } from "../../resources/host/wait-notice";
import { ok, startRecordingServer, type RecordingServer } from "../support/recording-server";
import { clientFor, fakeClock, type FakeClock } from "../api/helpers";
import * as F from "../api/fixtures";

let server: RecordingServer;
let clock: FakeClock;
let said: { at: number; line: string }[];
let start: number;
let client: ResellerClient;

/** A client of `perMinute` requests a minute whose waits go to the host's notices (a window of its own: its own base path). */
function noticedClient(perMinute: number, path: string): ResellerClient {
  const notices = waitNotices({ info: (line) => said.push({ at: clock.now() - start, line }), warn: () => undefined }, clock.now);
  return clientFor(server, clock, { requestsPerMinute: perMinute, burst: 100, baseUrl: `${server.url}/${path}`, waitNoticeMs: 0, onWait: notices });
}

beforeEach(async () => {
  server = await startRecordingServer();
  server.respond(() => ok(F.ping));
  clock = fakeClock();
  start = clock.now();
  said = [];
});
afterEach(async () => {
  await client?.close();
  await server.close();
});

test("requests queued for the rate limit are said at once, once: the limit, the setting, how many wait and how long the last of them waits", async () => {
  client = noticedClient(6, "queue");
  for (let i = 0; i < 6; i++) await client.ping();
  await Promise.all(Array.from({ length: 6 }, () => client.ping()));
  expect(server.requests).toHaveLength(12);
  expect(said).toEqual([
    {
      at: 0,
      line:
        "waiting for the rate limit: this API key may send 6 requests a minute (reseller:requestsPerMinute; the requests of every process using the key on this machine count, an earlier command's too), and that many went within the last minute; 6 requests are queued, the last to go in about 60 s, the next (GET /ping) in about 60 s",
    },
  ]);
});

test("short waits one after another are said once they add up, within 5 s of the first, with the time waited so far", async () => {
  client = noticedClient(60, "stretch");
  // A minute of requests, one a second (an up that just ended), then requests one after another, as the CLI checks resources.
  for (let i = 0; i < 60; i++) {
    await client.ping();
    await clock.sleep(1000);
  }
  const firstWaitAt = clock.now() - start;
  for (let i = 0; i < 10; i++) await client.ping();
  const waits = clock.sleeps.slice(60);
  expect(waits.length).toBeGreaterThan(3);
  expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
  expect(said).toHaveLength(1);
  expect(said[0].at - firstWaitAt).toBeLessThanOrEqual(5000);
  expect(said[0].line).toMatch(/^waiting for the rate limit: this API key may send 60 requests a minute \(reseller:requestsPerMinute; .*\), and that many went within the last minute; requests have waited \d+ s so far, each for the place a request of the last minute frees, the next \(GET \/ping\) in about 1 s$/);
});

/** Long waits say they are alive at a steady interval, with what they wait for and what remains. */
import { PROGRESS_EVERY_MS, waitProgress } from "../../resources/progress";

test("a line at the start, then one per interval with the time waited and left, none in between", () => {
  let t = 1_000_000;
  const lines: string[] = [];
  const deadline = t + 300_000;
  const progress = waitProgress("shop.example", "delegation to ns1.x, ns2.x", deadline, (l) => lines.push(l), () => t);
  progress("zone pending_nameserver");
  for (let i = 0; i < 9; i++) {
    t += 10_000;
    progress("zone pending_nameserver");
  }
  expect(PROGRESS_EVERY_MS).toBe(30_000);
  expect(lines).toEqual([
    "shop.example: waiting up to 300 s for delegation to ns1.x, ns2.x (zone pending_nameserver)",
    "shop.example: still waiting for delegation to ns1.x, ns2.x after 30 s (zone pending_nameserver); 270 s left",
    "shop.example: still waiting for delegation to ns1.x, ns2.x after 60 s (zone pending_nameserver); 240 s left",
    "shop.example: still waiting for delegation to ns1.x, ns2.x after 90 s (zone pending_nameserver); 210 s left",
  ]);
});

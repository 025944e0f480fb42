/**
 * The mistake catalogue's cases about money, credentials and delegation through the native provider
 * plugin (test/support/mistakes-through-cli.ts, `native`): each is caught at preview with the
 * catalogue's message, as on the dynamic resources, and preview writes nothing. The cases of more
 * than one resource are upped too (up creates between their checks): up fails with preview's message.
 * A case of one resource makes at up the one Check preview made, which cannot tell the two apart.
 */
import { MISTAKES } from "../audit/preview-catalogue";
import { mistakesThroughCli } from "../support/mistakes-through-cli";

jest.setTimeout(1_800_000);

/** The catalogue's money, credential and delegation cases, by title. */
const CASES = [
  "missing API key",
  "wrong API secret",
  "base URL without a scheme",
  "price above maxPrice",
  "balance too low for the stack's purchases",
  "a domain already taken",
  "a transfer of a name registered nowhere",
  "adopting a domain that is not in the account",
  "adopting WHOIS privacy that is off",
  "records in a zone that cannot become active",
  "a zone its own Domain's nameservers rule out, waiting for the delegation",
  "a zone for a domain without the DNS add-on",
];

const chosen = MISTAKES.filter((m) => CASES.includes(m.title));
test("every chosen case is in the catalogue", () => expect(chosen.map((m) => m.title).sort()).toEqual([...CASES].sort()));
mistakesThroughCli(chosen, 0, { native: true });

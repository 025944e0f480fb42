/**
 * schema.json cannot drift from the declarations it is made of (dev/provider/schema.ts): regenerated from
 * the sources, it must equal the committed file; and its inputs must be the fields each kind's check
 * takes (a field the check refuses as unknown, or one the schema lacks, fails here).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSchema, schemaText } from "../../../dev/provider/schema";
import { HANDLERS } from "../../../resources/handlers";
import { Host } from "../../../resources/host/host";

const root = path.resolve(__dirname, "..", "..", "..");
jest.setTimeout(120_000);

test("schema.json is what the declarations make (run npm run provider-schema after changing an argument, its doc or a secret output)", () => {
  expect(fs.readFileSync(path.join(root, "schema.json"), "utf8")).toBe(schemaText(root));
});

test("every resource's inputs are the fields its check reads: a schema input is never an unknown field, and a required one is refused when absent", async () => {
  const schema = buildSchema(root) as { resources: Record<string, { inputProperties: Record<string, unknown>; requiredInputs?: string[] }> };
  const host = new Host({ sink: { info: () => undefined, warn: () => undefined } });
  const ctx = host.context();
  expect(Object.keys(schema.resources).sort()).toEqual(Object.keys(HANDLERS).map((k) => `reseller:index:${k}`).sort());
  for (const [kind, h] of Object.entries(HANDLERS)) {
    const r = schema.resources[`reseller:index:${kind}`];
    // adopt: what is required only to buy (a Domain's contacts) is not required of every resource.
    const empty = await h.check(ctx, {}, { resourceUrn: `urn:pulumi:dev::p::reseller:index:${kind}::x`, adopt: true });
    const refusedAbsent = empty.failures.filter((f) => /is required|required/.test(f.reason)).map((f) => f.property.split(/[.[]/)[0]);
    // What the check requires of an empty resource is required in the schema.
    for (const p of new Set(refusedAbsent)) expect({ kind, p, required: r.requiredInputs ?? [] }).toEqual({ kind, p, required: expect.arrayContaining([p]) });
    // An input the check does not know would be refused with "not a field"/"unknown": none is.
    const unknown = empty.failures.filter((f) => /unknown|not a field|not an input/i.test(f.reason));
    expect({ kind, unknown }).toEqual({ kind, unknown: [] });
  }
  // A secret output the constructors declare is secret in the schema (Domain's contacts and auth code).
  const domain = (buildSchema(root) as { resources: Record<string, { properties: Record<string, { secret?: boolean }> }> }).resources["reseller:index:Domain"];
  expect(domain.properties.contacts.secret).toBe(true);
  expect(domain.properties.authCode.secret).toBe(true);
});

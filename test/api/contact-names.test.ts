/**
 * The one mapping of a contact's field names (api/contact-names.ts): ours are camelCase, the
 * service's are the spec's (Contact table), and every field of the spec is mapped, both ways.
 */
import { fromServiceContact, RENAMED_CONTACT_FIELDS, SERVICE_CONTACT_NAMES, toServiceContact, withOurContactNames } from "../../api/contact-names";
import { CONTACT_FIELDS } from "../../api/shapes";

/** The field names of the spec's Contact table (spec, Contact), spelled out here once. */
const SPEC_CONTACT_FIELDS = ["name", "organization", "email", "phone", "address_line_1", "address_line_2", "city", "state", "postal_code", "country"];

const ours = { name: "N", organization: null, email: "n@example.net", phone: "+441234567890", addressLine1: "1 Road", addressLine2: "Flat 2", city: "C", state: "", postalCode: "E1 6AN", country: "GB" };

test("ours are camelCase, the service's are the spec's Contact fields, one for one", () => {
  expect(Object.keys(SERVICE_CONTACT_NAMES).sort()).toEqual([...CONTACT_FIELDS.required, ...CONTACT_FIELDS.optional].sort());
  for (const k of Object.keys(SERVICE_CONTACT_NAMES)) expect(k).toMatch(/^[a-z][A-Za-z0-9]*$/);
  expect(Object.values(SERVICE_CONTACT_NAMES)).toEqual(SPEC_CONTACT_FIELDS);
  expect(RENAMED_CONTACT_FIELDS).toEqual([
    ["addressLine1", "address_line_1"],
    ["addressLine2", "address_line_2"],
    ["postalCode", "postal_code"],
  ]);
});

test("to the service's names and back gives the same contact; fields not given stay out; unstated fields are dropped", () => {
  const sent = toServiceContact(ours);
  expect(sent).toEqual({ name: "N", organization: null, email: "n@example.net", phone: "+441234567890", address_line_1: "1 Road", address_line_2: "Flat 2", city: "C", state: "", postal_code: "E1 6AN", country: "GB" });
  expect(fromServiceContact(sent)).toEqual(ours);
  const { addressLine2: _a, postalCode: _p, ...short } = ours;
  expect(Object.keys(toServiceContact(short))).not.toContain("postal_code");
  expect(fromServiceContact({ ...sent, fax: "+1" } as never)).toEqual(ours);
});

test("withOurContactNames renames the service's names and keeps other keys for validation; a field given both ways stays as given", () => {
  const { addressLine1: _a, postalCode: _p, ...rest } = ours;
  expect(withOurContactNames({ ...rest, address_line_1: "1 Road", postal_code: "E1 6AN", street: "x" })).toEqual({
    contact: { ...rest, addressLine1: "1 Road", postalCode: "E1 6AN", street: "x" },
    renamed: [
      ["address_line_1", "addressLine1"],
      ["postal_code", "postalCode"],
    ],
  });
  // Both spellings: left as given, so validation refuses the old one by name.
  expect(withOurContactNames({ ...ours, postal_code: "X" })).toEqual({ contact: { ...ours, postal_code: "X" }, renamed: [] });
  expect(withOurContactNames(ours)).toEqual({ contact: ours, renamed: [] });
  // In place: the keys keep their order.
  expect(Object.keys(withOurContactNames(toServiceContact(ours)).contact)).toEqual(Object.keys(ours));
});

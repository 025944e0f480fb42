/** redact(): secrets and contact details masked in objects (deeply) and in strings; input untouched. */
import { redact } from "../../api/redact";

const contact = {
  name: "Ada Lovelace",
  organization: "Engines Ltd",
  email: "ada@example.org",
  phone: "+44.2071234567",
  address_line_1: "12 Analytical Street",
  address_line_2: null,
  city: "London",
  state: "LDN",
  postal_code: "N1 9GU",
  country: "GB",
};

describe("redact", () => {
  it("masks contact fields and secrets in nested objects, keeps the rest", () => {
    const input = {
      domain: "example.com",
      auth_code: "EPP-abc-123",
      apiSecret: "s3cr3t",
      contacts: { registrant: contact, admin: null },
      records: [{ name: "www", type: "A", content: "192.0.2.1" }],
    };
    const out = redact(input);
    expect(out.domain).toBe("example.com");
    expect(out.auth_code).toBe("[redacted]");
    expect(out.apiSecret).toBe("[redacted]");
    const r = out.contacts.registrant;
    for (const k of ["name", "organization", "email", "phone", "address_line_1", "city", "state", "postal_code"] as const) expect(r[k]).toBe("[redacted]");
    expect(r.address_line_2).toBeNull();
    expect(r.country).toBe("GB");
    // A record's name is not personal.
    expect(out.records[0].name).toBe("www");
    // The input is unchanged.
    expect(input.contacts.registrant.email).toBe("ada@example.org");
    expect(JSON.stringify(out)).not.toMatch(/Ada|ada@|2071234567|Analytical|EPP-abc|s3cr3t/);
  });

  it("masks a contact in the package's camelCase names as in the service's", () => {
    const ours = { name: contact.name, email: "ada@example.org", phone: contact.phone, addressLine1: contact.address_line_1, addressLine2: "Flat 2", city: "London", state: "LDN", postalCode: "N1 9GU", country: "GB" };
    const out = redact({ contacts: { registrant: ours } }).contacts.registrant;
    for (const k of ["name", "email", "phone", "addressLine1", "addressLine2", "city", "state", "postalCode"] as const) expect(out[k]).toBe("[redacted]");
    expect(out.country).toBe("GB");
    const line = redact('check: {"addressLine1":"12 Analytical Street","postalCode":"N1 9GU"} addressLine2=Flat-2 postalCode: N1-9GU');
    expect(line).not.toMatch(/Analytical|N1 9GU|Flat-2|N1-9GU/);
  });

  it("masks in strings: key/value pairs, e-mail addresses, phone numbers and given literals", () => {
    const s = redact(
      'sent {"auth_code":"EPP-xyz","email":"bob@example.net"} auth_code=QQQ111 secret: hunter22 call +1 555 123 4567 with key-literal-SECRETVALUE',
      { secrets: ["SECRETVALUE"] },
    );
    expect(s).not.toMatch(/EPP-xyz|bob@example|QQQ111|hunter22|555 123|SECRETVALUE/);
    expect(s).toContain('"auth_code":"[redacted]"');
    expect(s).toContain("sent");
  });

  it("leaves plain values and harmless strings alone and survives cycles", () => {
    expect(redact(42)).toBe(42);
    expect(redact(null)).toBeNull();
    expect(redact("creating record www A 192.0.2.1")).toBe("creating record www A 192.0.2.1");
    const a: Record<string, unknown> = { secret: "x" };
    a.self = a;
    expect(redact(a)).toEqual({ secret: "[redacted]", self: "[circular]" });
  });
});

/** Minimal valid views, as the contract describes them, for scripted server answers. */
export const contact = {
  name: "Ada Lovelace",
  organization: null,
  email: "ada@example.org",
  phone: "+442071234567",
  address_line_1: "12 Analytical Street",
  address_line_2: null,
  city: "London",
  state: "LDN",
  postal_code: "N1 9GU",
  country: "GB",
};
export const order = { domain: "example.com", status: "active", stage: "pending_approval", charged: "12.00", currency: "USD", invoice: "INV-1", balance: "88.00" };
export const info = { domain: "example.com", status: "active", stage: "active", expiry_date: "2026-06-01", locked: true, nameservers: ["ns1.example.net", "ns2.example.net"] };
export const availability = { domain: "example.com", available: true, pricing: { amount: "12.00", currency: "USD" } };
export const host = { hostname: "ns1.example.com", ipv4: ["192.0.2.1"], ipv6: [] };
export const zone = { domain: "example.com", status: "active", nameservers: ["a.dns.example"], delegated: true, records_count: 1 };
export const record = { id: "r1", type: "A", name: "www", content: "192.0.2.1", ttl: 300 };
export const template = { id: "t1", name: "Mail", variables: ["mx_host"] };
export const privacy = { enabled: true, status: "awaiting_verification" };
export const protection = { enabled: true, status: "on" };
export const ping = { account: "acc-1", currency: "USD", balance: "100.00", scopes: ["read", "dns"] };
export const tld = { tld: "com", register_price: "12.00", renew_price: "14.00", transfer_price: "10.00" };
export const page = (items: unknown[], next: number | null = null) => ({ items, pagination: { page: 1, per_page: 500, total: items.length, next_page: next } });

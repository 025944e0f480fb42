// Domains, DNS zones and records of a domain-reseller account: registration and renewal that never pay twice, and a local sandbox.
package reseller

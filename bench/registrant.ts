/** Placeholder registrant for the domains the bench registers in its sandboxes (no imports: program modules load it). */
export const BENCH_REGISTRANT = {
  name: "Bench Operator",
  email: "hostmaster@bench.example",
  phone: "+441234567890",
  address_line_1: "1 Bench Street",
  city: "London",
  postal_code: "EC1A 1AA",
  country: "GB",
};

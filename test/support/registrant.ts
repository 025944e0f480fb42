/** Placeholder registrant for the domains the bench registers in its sandboxes (no imports: program modules load it). */
export const BENCH_REGISTRANT = {
  name: "Bench Operator",
  email: "hostmaster@bench.example",
  phone: "+441234567890",
  addressLine1: "1 Bench Street",
  city: "London",
  postalCode: "EC1A 1AA",
  country: "GB",
};

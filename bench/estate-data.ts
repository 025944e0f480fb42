/** The estate's names and registrant, shared by the estate bench, its program and its test (no imports: programs load it). */

/** Records per domain of the estate. */
export const ESTATE_RECORDS = 5;

/** A registrant in the form the service keeps (so adopting it changes nothing). */
export const ESTATE_CONTACT = { name: "Estate Owner", email: "owner@estate.test", phone: "+442079460001", addressLine1: "3 Estate Road", city: "London", state: "", postalCode: "E1 6AN", country: "GB" };

export const estateDomain = (i: number): string => `estate-${String(i).padStart(3, "0")}.com`;

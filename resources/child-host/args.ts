/** ChildHost's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";

/** Arguments of a {@link ChildHost}. */
export interface ChildHostArgs {
  /** The parent domain (held by the account). Changing it replaces the host. */
  domain: pulumi.Input<string>;
  /** Host name under the domain, e.g. "ns1.example.com" (a bare "ns1" is taken as relative). Replace. */
  hostname: pulumi.Input<string>;
  /** At least one IPv4 address (glue). Changed in place; order ignored. */
  ipv4: pulumi.Input<pulumi.Input<string>[]>;
  /** IPv6 addresses, may be empty. */
  ipv6?: pulumi.Input<pulumi.Input<string>[]>;
  /** Take an existing child host of that name into state instead of creating it: no change is made. */
  adopt?: pulumi.Input<boolean>;
}

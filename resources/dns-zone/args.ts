/** DnsZone's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";

/** Arguments of a {@link DnsZone}. */
export interface DnsZoneArgs {
  /** The domain whose zone the service hosts. Changing it replaces the zone. */
  domain: pulumi.Input<string>;
  /** Take an existing zone into state without changing it (a second create would get 409 zone_exists). */
  adopt?: pulumi.Input<boolean>;
  /** After create, post the delegation check until the zone is delegated (bounded by waitTimeoutSeconds). */
  waitForDelegation?: pulumi.Input<boolean>;
  /** Seconds to wait for delegation, default 300. */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /** Delete the zone even when it holds records this stack does not manage (they are deleted with it). */
  forceDestroy?: pulumi.Input<boolean>;
}

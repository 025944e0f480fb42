/** EppCode's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";

/** Arguments of an {@link EppCode}. */
export interface EppCodeArgs {
  /** The domain whose transfer code is requested. Changing it requests a code for the new domain. */
  domain: pulumi.Input<string>;
  /** Any value; changing it requests a new code. */
  trigger?: pulumi.Input<string | number | boolean>;
}

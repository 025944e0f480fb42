/** ZoneTemplate's arguments, as a program gives them (public; program side). Types only: what check makes of them and what state keeps are ./state.ts. */
import type * as pulumi from "@pulumi/pulumi";

/** Arguments of a {@link ZoneTemplate}. */
export interface ZoneTemplateArgs {
  /** The zone (domain) to apply the template to. Changing it applies the template there instead. */
  zone: pulumi.Input<string>;
  /** Quick Setup template id (see the service's template list). */
  templateId: pulumi.Input<string>;
  /** Template variables, e.g. { mx_host: "mail.example.com" }. */
  variables?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** What to do with existing records the template would write: skip, replace or cancel (default). */
  conflictStrategy?: pulumi.Input<"skip" | "replace" | "cancel">;
  /** Take an already applied template into state (verifies template and zone exist; claims no records). */
  adopt?: pulumi.Input<boolean>;
}

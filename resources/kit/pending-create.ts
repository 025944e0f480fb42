/**
 * What a take-over says about the create an interrupted command left pending in the stack's state
 * (`pulumi stack export`: pending_operations, "interrupted while creating"): the object is in the
 * state now, so the entry is cleared, never imported. The Pulumi CLI (checked with v3.274.1) keeps
 * such an entry through every `up` and drops it only in `pulumi refresh`, which without a terminal
 * needs a flag; its `--import-pending-creates` drops a dynamic resource's entry without importing it.
 */

/** The sentence added to a take-over's message: the command to clear the entry, and the id, for whoever imports. */
export const pendingCreateHint = (id: string, idIs: string): string =>
  `If \`pulumi up\` listed this resource as "interrupted while creating", that entry can go now: \`pulumi refresh --clear-pending-creates --yes --non-interactive\` (its id, for \`--import-pending-creates <URN> --import-pending-creates <ID>\`, is ${idIs}: ${id}; an up takes it over either way)`;

// The types of parts.js (plain Node: install.js reads it before anything is compiled).

export type Part = "cli" | "yaml";

/** Each part's stamp and binaries. */
export const PARTS: Readonly<Record<Part, { readonly stamp: string; readonly binaries: readonly string[] }>>;

/** The folder the binaries of `version` go to: `.pulumi-cli/<version>` in the checkout. */
export function binDir(version: string): string;

/** A property bag as the engine sends it, before check (and as state keeps it): the one untyped shape of the kit. */
export type Props = Record<string, unknown>;

/** Properties a kind derives from an input under another name, by that input's name (./handler.ts secretDerived). */
export type SecretDerived = Readonly<Record<string, readonly string[]>>;

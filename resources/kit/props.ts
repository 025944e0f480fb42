/** A property bag as the engine sends it, before check (and as state keeps it): the one untyped shape of the kit. */
export type Props = Record<string, unknown>;

/**
 * Property bags between the engine and the handlers, in the native plugin: secrets as the engine
 * marks them (the plugin accepts secrets), the names of the secret inputs as the handlers know them
 * (`secretInputs`, the input the dynamic resources' constructors add), the URN as the handlers'
 * `resourceUrn`, and what a diff tells the engine field by field. Pure functions, no state.
 */
import { SECRET_INPUTS } from "../kinds";

/** How the engine marks a secret in a property bag (pulumi `sdk/go/common/resource/sig`: the secret signature). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

const isSecret = (v: unknown): v is { value: unknown } => typeof v === "object" && v !== null && (v as Props)[SIG_KEY] === SECRET_SIG;

/** A value without secret markers, and whether any part of it was secret. */
export function reveal(v: unknown): { value: unknown; secret: boolean } {
  if (isSecret(v)) return { value: reveal(v.value).value, secret: true };
  if (Array.isArray(v)) {
    const parts = v.map(reveal);
    return { value: parts.map((p) => p.value), secret: parts.some((p) => p.secret) };
  }
  if (typeof v === "object" && v !== null) {
    let secret = false;
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const r = reveal(x);
      out[k] = r.value;
      secret ||= r.secret;
    }
    return { value: out, secret };
  }
  return { value: v, secret: false };
}

/** A bag from the engine as the handlers take it: plain values, and the names of its top-level inputs that held a secret. */
export function revealBag(bag: Props): { plain: Props; secrets: Set<string> } {
  const plain: Props = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(bag)) {
    const r = reveal(v);
    plain[k] = r.value;
    if (r.secret) secrets.add(k);
  }
  return { plain, secrets };
}

/** Keys the handlers use that are not properties of the native resources (a dynamic state's `__provider`, the URN, the secret names). */
const NOT_PROPERTIES: ReadonlySet<string> = new Set(["__provider", "resourceUrn", SECRET_INPUTS]);

/** What a handler call gets: the plain bag, the resource's URN, and its secret inputs named as the dynamic resources name them. */
export function handlerBag(plain: Props, urn: string, secrets: ReadonlySet<string>): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(plain)) if (!NOT_PROPERTIES.has(k)) out[k] = v;
  out.resourceUrn = urn;
  if (secrets.size) out[SECRET_INPUTS] = [...secrets].sort();
  return out;
}

/** What goes back to the engine: the handlers' bookkeeping keys left out, undefined dropped, and every name in `secrets` marked secret. */
export function engineBag(bag: unknown, secrets: ReadonlySet<string>): Props {
  const out: Props = {};
  if (typeof bag !== "object" || bag === null) return out;
  for (const [k, v] of Object.entries(bag)) {
    if (NOT_PROPERTIES.has(k) || v === undefined) continue;
    const value = JSON.parse(JSON.stringify(v)) as unknown;
    out[k] = secrets.has(k) && value !== null ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  return out;
}

/** The engine's PropertyDiff kinds (pulumirpc.PropertyDiff.Kind). */
export const DIFF_KIND = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 } as const;

/** A diff's fields as the engine shows them: added, deleted or updated, and whether each replaces. */
export function detailedDiff(olds: Props, news: Props, diffs: readonly string[], replaces: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of diffs) {
    const replace = replaces.includes(key);
    const had = olds[key] !== undefined && olds[key] !== null;
    const has = news[key] !== undefined && news[key] !== null;
    out[key] = !had ? (replace ? DIFF_KIND.ADD_REPLACE : DIFF_KIND.ADD) : !has ? (replace ? DIFF_KIND.DELETE_REPLACE : DIFF_KIND.DELETE) : replace ? DIFF_KIND.UPDATE_REPLACE : DIFF_KIND.UPDATE;
  }
  return out;
}

/** The kind a native type token names (`reseller:index:<Kind>`), read from a URN (parent types before a `$`). */
export function kindOfNativeUrn(urn: string): string {
  const type = urn.split("::")[2] ?? "";
  return type.split("$").pop()!.split(":").pop()!;
}

/**
 * Inputs the program marked secret, kept out of every message of the provider host. The host gets
 * plain values (it answers Configure with acceptSecrets=false, so the engine unwraps secrets before
 * Check), so only the program can tell which inputs were secret: the resource constructors send
 * their names as the input `secretInputs` (../program/register.ts). Here check's failures for those inputs
 * name the field and the rule but never the value, and their values are masked wherever they
 * appear: log lines, failures of other fields, thrown errors (message, stack, reasons, causes).
 */
import { encodedForms } from "../../api/redact";
import type { Props, SecretDerived } from "./props";
import { SECRET_INPUTS } from "../kinds";
import { UNKNOWN } from "./unknown";

/** A secret shorter than this is not masked as free text (it would mask common words); its own failures still hide it. */
const MIN_LITERAL = 4;

/** What stands in for a secret value in a message. */
export const SECRET_SHOWN = "(secret)";

/**
 * The top-level inputs marked secret in `props`: every input when the marker is not known yet
 * (preview) or not a list of names, which fails closed.
 */
export function secretNames(props: Props): ReadonlySet<string> | "all" {
  const m = props[SECRET_INPUTS];
  if (m === undefined || m === null) return new Set();
  if (m === UNKNOWN || !Array.isArray(m) || m.some((n) => typeof n !== "string")) return "all";
  return new Set(m as string[]);
}

/** Inputs that are never the program's values: the marker itself, the serialized provider and the URN. */
const NOT_VALUES: ReadonlySet<string> = new Set([SECRET_INPUTS, "__provider", "resourceUrn"]);

export const isSecretName = (names: ReadonlySet<string> | "all", name: string): boolean => !NOT_VALUES.has(name) && (names === "all" || names.has(name));

/**
 * Every string and number inside the inputs marked secret, as given and trimmed. Whole values
 * only: their parts ("com", "test") would mask common words in every message. What a rule quotes
 * of a secret value is hidden in its own failures (maskQuoted).
 */
export function secretStrings(props: Props): string[] {
  const names = secretNames(props);
  const out = new Set<string>();
  const add = (s: string): void => {
    for (const form of [s, s.trim()]) if (form.length >= MIN_LITERAL && form !== UNKNOWN) out.add(form);
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 20) return;
    if (typeof v === "string" || typeof v === "number") add(String(v));
    else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === "object") Object.values(v).forEach((x) => walk(x, depth + 1));
  };
  for (const [k, v] of Object.entries(props)) if (isSecretName(names, k)) walk(v, 0);
  return [...out];
}

/** Pulumi's special-object key and the signature of a secret on the wire (sdk/nodejs/runtime/rpc.ts, sdk/go/common/resource/sig). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

const isMarkedSecret = (v: unknown): boolean => typeof v === "object" && v !== null && (v as Props)[SIG_KEY] === SECRET_SIG;

/**
 * `bag` (check's inputs, or outputs) with every property `derived` names from an input marked secret
 * in `from` (its `secretInputs`; every input when unknown) sent as a secret: the engine keeps a
 * property the provider sends with the secret signature secret in state (it reads a provider's
 * answers keeping secrets), though the provider host gets plain values. Other properties as they are.
 */
export function markDerivedSecrets<T>(bag: T, from: Props, derived: SecretDerived | undefined): T {
  if (!derived || typeof bag !== "object" || bag === null) return bag;
  const names = secretNames(from);
  let out: Props | undefined;
  for (const [input, props] of Object.entries(derived)) {
    if (!isSecretName(names, input)) continue;
    for (const p of props) {
      const v = (bag as Props)[p];
      if (v === undefined || v === null || isMarkedSecret(v)) continue;
      out ??= { ...(bag as Props) };
      out[p] = { [SIG_KEY]: SECRET_SIG, value: v };
    }
  }
  return (out ?? bag) as T;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Quoted parts of a rule (where rules repeat the value or a part of it) shown as "(secret)". */
export const maskQuoted = (rule: string): string => rule.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, `"${SECRET_SHOWN}"`);

/**
 * The secret values seen by this provider host (one process serves the whole stack), masked in
 * any text: case-insensitively, also as JSON, a URL or base64 encodes them (api/redact.ts
 * `encodedForms`). Longest first, so a value is masked whole before its parts.
 */
export class SecretValues {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;

  /** Adds the secret strings of a property bag (inputs or outputs carrying `secretInputs`). */
  addFrom(...bags: (Props | undefined)[]): void {
    let added = false;
    for (const bag of bags) {
      if (!bag) continue;
      for (const s of secretStrings(bag)) {
        for (const form of encodedForms(s)) {
          if (!this.values.has(form)) {
            this.values.add(form);
            added = true;
          }
        }
      }
    }
    if (added) {
      const sorted = [...this.values].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.pattern = new RegExp(sorted.join("|"), "gi");
    }
  }

  mask(text: string): string {
    return this.pattern ? text.replace(this.pattern, SECRET_SHOWN) : text;
  }

  /** The error with every text a user or log can see masked (in place: the host reads message, stack and reasons). */
  scrub(e: unknown, depth = 0): unknown {
    if (!this.pattern || depth > 5) return e;
    if (typeof e === "string") return this.mask(e);
    if (!(e instanceof Error)) return e;
    e.message = this.mask(e.message);
    if (e.stack) e.stack = this.mask(e.stack);
    const withReasons = e as Error & { reasons?: unknown };
    if (Array.isArray(withReasons.reasons)) {
      Object.defineProperty(e, "reasons", { value: withReasons.reasons.map((r) => (typeof r === "string" ? this.mask(r) : r)), configurable: true, enumerable: true });
    }
    if (e.cause !== undefined) e.cause = this.scrub(e.cause, depth + 1);
    return e;
  }
}

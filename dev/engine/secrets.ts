// Secret values as Pulumi moves them: marked with a signature object in the program's RPCs, plain
// for the provider host (it answers acceptSecrets=false), and encrypted in the state file.
import * as crypto from "node:crypto";
import { UNKNOWN, type PropertyMap } from "./host";

/** Pulumi's special-object key and the signature of a secret (sdk/nodejs/runtime/rpc.ts). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isSecretMarker(v: unknown): v is { value: unknown } {
  return isObject(v) && v[SIG_KEY] === SECRET_SIG && "value" in v;
}

/**
 * Strips secret markers; says whether any secret was seen. The values come off the wire (the program
 * may run another copy, even another version, of the SDK), so an unknown is Pulumi's unknown string,
 * never the SDK's in-process sentinel: nothing here asks this repository's SDK about them.
 */
function plainValue(v: unknown): { value: unknown; secret: boolean } {
  if (v === UNKNOWN) return { value: UNKNOWN, secret: false };
  if (isSecretMarker(v)) return { value: plainValue(v.value).value, secret: true };
  if (Array.isArray(v)) {
    const items = v.map(plainValue);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    let secret = false;
    for (const [k, item] of Object.entries(v)) {
      if (item === undefined) continue;
      const p = plainValue(item);
      out[k] = p.value;
      secret ||= p.secret;
    }
    return { value: out, secret };
  }
  return { value: v, secret: false };
}

/**
 * The program's registered inputs as the provider host gets them, plus the top-level keys that held a
 * secret anywhere inside (Pulumi pushes secretness up to the property, as here).
 */
export function unwrapInputs(inputs: Record<string, unknown>): { plain: PropertyMap; secretKeys: string[] } {
  const plain: PropertyMap = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(inputs)) {
    if (v === undefined) continue;
    const p = plainValue(v);
    plain[k] = p.value;
    if (p.secret) secretKeys.push(k);
  }
  return { plain, secretKeys };
}

/** Marks the named properties secret again, for the values handed back to the program. */
export function markSecrets(props: PropertyMap, secretKeys: readonly string[]): PropertyMap {
  const out: PropertyMap = { ...props };
  for (const k of secretKeys) {
    if (k in out && out[k] !== undefined) out[k] = { [SIG_KEY]: SECRET_SIG, value: out[k] };
  }
  return out;
}

/** A secret in the state file: Pulumi's own envelope shape, with AES-256-GCM ciphertext. */
export interface SecretEnvelope {
  [SIG_KEY]: typeof SECRET_SIG;
  ciphertext: string;
}

export function isSecretEnvelope(v: unknown): v is SecretEnvelope {
  return isObject(v) && v[SIG_KEY] === SECRET_SIG && typeof v.ciphertext === "string";
}

/**
 * Keys already derived in this process, by a digest of salt and passphrase (never the passphrase
 * itself). scrypt costs about 65 ms of CPU by design; a process that opens the same state again (each
 * command of a stack loads the state file anew) derives its key once. Bounded: oldest out first.
 */
const derivedKeys = new Map<string, Buffer>();
const DERIVED_KEYS_KEPT = 64;

function deriveKey(passphrase: string, salt: string): Buffer {
  const id = crypto.createHash("sha256").update(salt).update("\0").update(passphrase).digest("base64");
  const known = derivedKeys.get(id);
  if (known) return known;
  const key = crypto.scryptSync(passphrase, Buffer.from(salt, "base64"), 32);
  if (derivedKeys.size >= DERIVED_KEYS_KEPT) derivedKeys.delete(derivedKeys.keys().next().value as string);
  derivedKeys.set(id, key);
  return key;
}

/**
 * Encrypts and decrypts state secrets under a key derived from a passphrase (scrypt, per-state salt).
 * The key is derived when first needed: a state held only in memory and never written or holding no
 * secret needs none.
 */
export class SecretsCipher {
  /** The key, in a closure: the passphrase stays out of anything that copies or prints this object. */
  private readonly key: () => Buffer;

  constructor(passphrase: string, readonly salt: string) {
    let key: Buffer | undefined;
    this.key = () => (key ??= deriveKey(passphrase, salt));
  }

  static newSalt(): string {
    return crypto.randomBytes(16).toString("base64");
  }

  seal(value: unknown): SecretEnvelope {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", this.key(), iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    const ciphertext = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
    return { [SIG_KEY]: SECRET_SIG, ciphertext };
  }

  open(envelope: SecretEnvelope): unknown {
    const raw = Buffer.from(envelope.ciphertext, "base64");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    let text: string;
    try {
      text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("cannot decrypt a secret in the state: incorrect passphrase (set PULUMI_CONFIG_PASSPHRASE)");
    }
    return JSON.parse(text) as unknown;
  }

  /** Seals the named top-level properties. */
  sealProps(props: PropertyMap, keys: readonly string[]): PropertyMap {
    const out: PropertyMap = { ...props };
    for (const k of keys) if (k in out && out[k] !== undefined) out[k] = this.seal(out[k]);
    return out;
  }

  /** Opens every sealed top-level property. */
  openProps(props: PropertyMap): PropertyMap {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(props)) out[k] = isSecretEnvelope(v) ? this.open(v) : v;
    return out;
  }
}

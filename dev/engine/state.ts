// The engine's checkpoint, shaped like a Pulumi stack's state: one entry per resource (stack,
// components and custom resources), dependencies before dependents, written atomically after every
// step so a crash leaves what was done on record; plus the config of the last `up`, which refresh
// and destroy use (secrets sealed like every other secret in the file).
import * as fs from "node:fs";
import * as path from "node:path";
import type { PropertyMap } from "./host";
import { SecretsCipher } from "./secrets";

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  /** Empty for components and the stack. */
  id: string;
  /** false for components and the root stack: no provider, no provider calls. */
  custom: boolean;
  parent?: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** Properties kept secret: inputs the program marked secret, and additionalSecretOutputs. */
  secretKeys: string[];
  /** URNs this resource depends on (dependsOn and the resources its inputs came from). */
  dependencies: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: boolean;
  retainOnDelete?: boolean;
  deletedWith?: string;
  additionalSecretOutputs?: string[];
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  /** A create/update that made something and then failed: the next up runs an update (step.go). */
  initErrors?: string[];
  /** Deleted by a delete-before-replace, its replacement not yet created. */
  pendingReplacement?: boolean;
  /** To be deleted: the old half of a create-before-delete replace whose delete has not succeeded yet. */
  delete?: boolean;
  /** Read with `.get()`: not owned, never deleted by the provider. */
  external?: boolean;
}

interface StateFile {
  version: 2;
  /** scrypt salt of the secrets key, as Pulumi's passphrase provider keeps `encryptionsalt`. */
  encryptionsalt: string;
  /** The config of the last `up`, secret keys sealed: refresh and destroy configure the provider with it. */
  config?: Record<string, unknown>;
  secretConfigKeys?: string[];
  resources: ResourceState[];
}

/** A version-1 entry (before components and options were recorded). */
type LegacyEntry = Partial<ResourceState> & { pendingDelete?: boolean };

function upgrade(r: LegacyEntry): ResourceState {
  const { pendingDelete, ...rest } = r;
  return {
    custom: true,
    dependencies: [],
    secretKeys: [],
    inputs: {},
    outputs: {},
    id: "",
    ...rest,
    ...(pendingDelete ? { delete: true } : {}),
  } as ResourceState;
}

export class StateStore {
  /** A checkpoint not built yet: kept in memory only, it is built when read (see `checkpoint`). */
  private pending: (() => ResourceState[]) | undefined;

  private constructor(
    private readonly file: string | undefined,
    private readonly cipher: SecretsCipher,
    private current: ResourceState[],
    public config: Record<string, string> | undefined,
    public secretConfigKeys: string[],
  ) {}

  get resources(): ResourceState[] {
    if (this.pending) {
      this.current = this.pending();
      this.pending = undefined;
    }
    return this.current;
  }

  set resources(resources: ResourceState[]) {
    this.current = resources;
    this.pending = undefined;
  }

  /**
   * A step's checkpoint. Building one costs O(N), so one per step is O(N²) for a run: with a state
   * file it is built and written at once (as the CLI writes each checkpoint); in memory only it is
   * built when something reads the resources, so a run nobody watches builds it once.
   */
  checkpoint(snapshot: () => ResourceState[]): void {
    if (!this.file) {
      this.pending = snapshot;
      return;
    }
    this.resources = snapshot();
    this.save();
  }

  /** Loads the state file (or starts empty), opening secrets with the passphrase. */
  static load(file: string | undefined, passphrase: string): StateStore {
    if (!file || !fs.existsSync(file)) return new StateStore(file, new SecretsCipher(passphrase, SecretsCipher.newSalt()), [], undefined, []);
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
    const cipher = new SecretsCipher(passphrase, saved.encryptionsalt);
    const resources = saved.resources.map((r) => {
      const u = upgrade(r);
      return { ...u, inputs: cipher.openProps(u.inputs), outputs: cipher.openProps(u.outputs) };
    });
    const config = saved.config ? (cipher.openProps(saved.config) as Record<string, string>) : undefined;
    return new StateStore(file, cipher, resources, config, saved.secretConfigKeys ?? []);
  }

  /** The state as written: every secret property sealed. */
  serialize(): string {
    const out: StateFile = {
      version: 2,
      encryptionsalt: this.cipher.salt,
      ...(this.config ? { config: this.cipher.sealProps(this.config, this.secretConfigKeys), secretConfigKeys: this.secretConfigKeys } : {}),
      resources: this.resources.map((r) => ({
        ...r,
        inputs: this.cipher.sealProps(r.inputs, r.secretKeys),
        outputs: this.cipher.sealProps(r.outputs, r.secretKeys),
      })),
    };
    return JSON.stringify(out, null, 2) + "\n";
  }

  save(): void {
    if (!this.file) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, this.serialize(), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }
}

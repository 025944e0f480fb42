// The engine's checkpoint: like a Pulumi stack's state, one entry per resource in registration order,
// written atomically after every step so a crash leaves what was done on record.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PropertyMap } from "./host";
import { SecretsCipher } from "./secrets";

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  id: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  /** Properties kept secret: inputs the program marked secret, and declared secret outputs. */
  secretKeys: string[];
  /** The old half of a create-before-delete replace whose delete failed: deleted on the next run. */
  pendingDelete?: boolean;
}

interface StateFile {
  version: 1;
  /** scrypt salt of the secrets key, as Pulumi's passphrase provider keeps `encryptionsalt`. */
  encryptionsalt: string;
  resources: ResourceState[];
}

export class StateStore {
  private constructor(
    private readonly file: string | undefined,
    private readonly cipher: SecretsCipher,
    public resources: ResourceState[],
  ) {}

  /** Loads the state file (or starts empty), opening secrets with the passphrase. */
  static load(file: string | undefined, passphrase: string): StateStore {
    if (!file || !fs.existsSync(file)) return new StateStore(file, new SecretsCipher(passphrase, SecretsCipher.newSalt()), []);
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
    const cipher = new SecretsCipher(passphrase, saved.encryptionsalt);
    const resources = saved.resources.map((r) => ({
      ...r,
      inputs: cipher.openProps(r.inputs),
      outputs: cipher.openProps(r.outputs),
    }));
    return new StateStore(file, cipher, resources);
  }

  /** The state as written: every secret property sealed. */
  serialize(): string {
    const out: StateFile = {
      version: 1,
      encryptionsalt: this.cipher.salt,
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

  get(urn: string): ResourceState | undefined {
    return this.resources.find((r) => r.urn === urn && !r.pendingDelete);
  }
}

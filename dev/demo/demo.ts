// `npm run demo`: starts the embedded sandbox, then runs the main example (the very file a user would
// `pulumi up`) through the real Pulumi CLI with the sandbox's URL and credentials as stack config:
// a `pulumi` on PATH if there is one, else the pinned one `npm run pulumi-cli` builds, which it
// builds first when Go is there and the build is missing or stale (saying so). Only where neither a
// CLI nor Go is there does it run the stand-in engine (dev/engine/), saying why. Exits non-zero when
// anything fails or the second run of the same program wants to change something.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageRoot } from "../engine/host";
import { buildPinnedCli, builtCli, cliOnPath, goVersion, PINNED_CLI, type PulumiCli } from "../pulumi-cli";
import { runDemo } from "./run-demo";
import { runDemoWithCli } from "./run-demo-cli";

/** What the demo needs of the sandbox (sandbox/index.ts). */
interface Sandbox {
  url: string;
  credentials: { key: string; secret: string };
  close(): Promise<void>;
}

function loadSandbox(): (opts: { port: number }) => Promise<Sandbox> {
  return (require("../../sandbox") as { startSandbox(opts: { port: number }): Promise<Sandbox> }).startSandbox;
}

/** A `pulumi` on PATH; else the pinned CLI, built first when Go is there; else one built before; else none. */
function demoCli(): PulumiCli | undefined {
  const own = cliOnPath();
  if (own) return own;
  const go = goVersion();
  if (go) {
    if (!builtCli()) console.log(`demo: no pulumi on PATH and the pinned Pulumi CLI ${PINNED_CLI} is not built: building it with ${go} (npm run pulumi-cli; minutes the first time)`);
    buildPinnedCli();
  }
  return builtCli();
}

export async function main(): Promise<number> {
  const program = path.join(packageRoot(), "dist", "examples", "main", "index.js");
  if (!fs.existsSync(program)) throw new Error(`${program} is missing: run \`npm run build\` first`);
  const sandbox = await loadSandbox()({ port: 0 });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-demo-"));
  try {
    console.log(`sandbox: ${sandbox.url} (API key ${sandbox.credentials.key})`);
    const cli = demoCli();
    if (cli) {
      console.log(`demo: the Pulumi CLI ${cli.version}, ${cli.origin === "PATH" ? `yours on PATH (${cli.bin})` : "built by `npm run pulumi-cli`"}`);
      const result = await runDemoWithCli(cli, program, sandbox);
      return result.changedOnSecondRun === 0 ? 0 : 1;
    }
    console.log(
      `demo: no Pulumi CLI: none on PATH, ${PINNED_CLI} not built, and Go is not installed to build it (npm run pulumi-cli needs Go 1.26 or newer, https://go.dev/dl/): running the stand-in engine (dev/engine/) instead`,
    );
    const result = await runDemo(program, {
      stateFile: path.join(stateDir, "dev.json"),
      project: "reseller-pulumi-main-example",
      config: {
        "reseller:baseUrl": sandbox.url,
        "reseller:apiKey": sandbox.credentials.key,
        "reseller:apiSecret": sandbox.credentials.secret,
      },
      secretConfigKeys: ["reseller:apiSecret"],
    });
    return result.changedOnSecondRun === 0 ? 0 : 1;
  } finally {
    await sandbox.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`demo failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}

// `npm run demo`: starts the embedded sandbox, then runs the main example (the very file a user would
// `pulumi up`) through the real Pulumi CLI with the sandbox's URL and credentials as stack config:
// a `pulumi` on PATH if there is one, else the one `npm run pulumi-cli` built. Where neither is
// there it says so and runs the stand-in engine (dev/engine/) instead. Exits non-zero when anything
// fails or the second run of the same program wants to change something.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageRoot } from "../engine/host";
import { findPulumiCli } from "../pulumi-cli";
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

export async function main(): Promise<number> {
  const program = path.join(packageRoot(), "dist", "examples", "main", "index.js");
  if (!fs.existsSync(program)) throw new Error(`${program} is missing: run \`npm run build\` first`);
  const sandbox = await loadSandbox()({ port: 0 });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "reseller-demo-"));
  try {
    console.log(`sandbox: ${sandbox.url} (API key ${sandbox.credentials.key})`);
    const cli = findPulumiCli({ preferPath: true });
    if (cli) {
      console.log(`demo: the Pulumi CLI ${cli.version}, ${cli.origin === "PATH" ? `yours on PATH (${cli.bin})` : "built by `npm run pulumi-cli`"}`);
      const result = await runDemoWithCli(cli, program, sandbox);
      return result.changedOnSecondRun === 0 ? 0 : 1;
    }
    console.log("demo: no Pulumi CLI (none on PATH, and `npm run pulumi-cli` has not built one): running the stand-in engine (dev/engine/) instead");
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

/**
 * `npx reseller-pulumi sandbox` (or `npm run sandbox` in the repository): start the sandbox in the foreground.
 * Options: --port N (8787) --host H (127.0.0.1) --key K --secret S --data FILE --rate N --delay SECONDS
 */
import { DEFAULT_CONTRACT } from "../api/contract";
import { DEFAULT_CREDENTIALS, startSandbox, type SandboxOptions } from "./index";

const USAGE = "usage: reseller-pulumi sandbox [--port N] [--host H] [--key K] [--secret S] [--data FILE] [--rate N] [--delay SECONDS]";

export function parseArgs(argv: string[]): SandboxOptions {
  const opts: SandboxOptions = { port: 8787 };
  let key = DEFAULT_CREDENTIALS.key;
  let secret = DEFAULT_CREDENTIALS.secret;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const num = (): number => {
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number\n${USAGE}`);
      return n;
    };
    const text = (): string => {
      if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a value\n${USAGE}`);
      return value;
    };
    switch (flag) {
      case "--port":
        opts.port = num();
        break;
      case "--host":
        opts.host = text();
        break;
      case "--key":
        key = text();
        break;
      case "--secret":
        secret = text();
        break;
      case "--data":
        opts.dataFile = text();
        break;
      case "--rate":
        opts.requestsPerMinute = Math.max(1, Math.floor(num()));
        break;
      case "--delay":
        opts.processingDelaySeconds = num();
        break;
      case "--help":
      case "-h":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
    i++;
  }
  opts.credentials = [{ key, secret }];
  return opts;
}

/**
 * What the command prints: where the sandbox listens, the settings to use with it, and the `pulumi
 * config set` lines. The secret is printed as a value to copy, never on a command line (shell history
 * and CI logs keep those): its `config set` line has no value, so the CLI asks for it without echo.
 */
export function banner(sb: { url: string; credentials: { key: string; secret: string } }, opts: Pick<SandboxOptions, "dataFile">): string {
  return [
    `sandbox listening: ${sb.url} (API under ${sb.url}${DEFAULT_CONTRACT.apiPrefix})`,
    `reseller:baseUrl:  ${sb.url}`,
    `reseller:apiKey:   ${sb.credentials.key}`,
    `reseller:apiSecret: ${sb.credentials.secret}`,
    `  pulumi config set reseller:baseUrl ${sb.url}`,
    `  pulumi config set reseller:apiKey ${sb.credentials.key}`,
    `  pulumi config set --secret reseller:apiSecret   # asks for it, not echoed: paste the reseller:apiSecret above`,
    `operator:          ${sb.url}/_sandbox/ (loopback only; e.g. GET ${sb.url}/_sandbox/ledger)`,
    opts.dataFile ? `state file:        ${opts.dataFile}` : "state:             in memory",
    "Ctrl-C to stop",
    "",
  ].join("\n");
}

/** Starts the sandbox and prints what to configure; it runs until SIGINT or SIGTERM. */
export async function runSandbox(argv: string[]): Promise<void> {
  let opts: SandboxOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sb = await startSandbox(opts);
  } catch (e) {
    // A port in use or an unreadable --data file is the operator's to fix: say so, no stack trace.
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "EADDRINUSE" ? `port ${opts.port} on ${opts.host ?? "127.0.0.1"} is in use; pick another with --port` : err.message;
    process.stderr.write(`sandbox: cannot start: ${why}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(banner(sb, opts));
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void sb.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) void runSandbox(process.argv.slice(2));

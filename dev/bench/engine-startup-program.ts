// The program the engine start-up bench runs (dev/bench/engine-startup.ts): one Domain ("ours") or one
// bare dynamic resource whose create makes one request to the same sandbox ("bare").
import * as pulumi from "@pulumi/pulumi";
import { programArgs } from "../engine/program-args";

interface StartupArgs {
  kind: "ours" | "bare";
  url: string;
  domain: string;
}

/** The smallest dynamic provider that makes one request: what any provider pays to reach an API. */
const bareProvider = {
  async create(inputs: { url: string }) {
    await fetch(inputs.url);
    return { id: "bare", outs: inputs };
  },
};

class Bare extends pulumi.dynamic.Resource {
  constructor(name: string, url: string) {
    super(bareProvider, name, { url }, {}, "bench", "Bare");
  }
}

/** The program both runs execute. */
export = async function startupProgram(): Promise<void> {
  const args = programArgs<StartupArgs>();
  if (args.kind === "bare") {
    new Bare("bare", args.url);
    return;
  }
  const reseller = require("../../resources") as typeof import("../../resources");
  const { BENCH_REGISTRANT } = require("./measure") as typeof import("./measure");
  new reseller.Domain("startup", { domain: args.domain, contacts: { registrant: BENCH_REGISTRANT } });
}

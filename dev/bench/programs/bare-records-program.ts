/**
 * The linear bench's comparison program: `records` bare dynamic resources, each making one HTTP
 * request to the sandbox per create, read and delete (the smallest provider that reaches an API),
 * through the same engine as the DnsRecords of prefixed-records-program.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { programArgs } from "../../engine/program-args";

interface BareInputs {
  url: string;
}

const bareProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: BareInputs) {
    await (await fetch(inputs.url)).arrayBuffer();
    return { id: inputs.url, outs: inputs };
  },
  async read(id: string, props: BareInputs) {
    await (await fetch(props.url)).arrayBuffer();
    return { id, props };
  },
  async delete(_id: string, props: BareInputs) {
    await (await fetch(props.url)).arrayBuffer();
  },
};

class Bare extends pulumi.dynamic.Resource {
  constructor(name: string, url: string) {
    super(bareProvider, name, { url }, {}, "bench", "Bare");
  }
}

function bareRecordsProgram(): void {
  const { records, url } = programArgs<bareRecordsProgram.Args>();
  for (let i = 0; i < records; i++) {
    const name = `bare-${String(i).padStart(4, "0")}`;
    new Bare(name, `${url}/${name}`);
  }
}

declare namespace bareRecordsProgram {
  interface Args {
    records: number;
    /** Each resource requests `<url>/<name>`. */
    url: string;
  }
}

// The CLI's runner calls `module.exports` when it is a function.
export = bareRecordsProgram;

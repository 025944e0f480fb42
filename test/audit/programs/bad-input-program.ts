/** The bad-input audit's program (test/audit/bad-input.test.ts): the given resources, declared in order. */
import type { CustomResource } from "@pulumi/pulumi";
import { programArgs } from "../../../dev/engine/program-args";
import * as reseller from "../../../resources";
import type { Kind } from "../../../resources/kinds";

type Constructor = new (name: string, args: never) => CustomResource;

function badInputProgram(): void {
  const classes = reseller as unknown as Record<Kind, Constructor>;
  for (const r of programArgs<badInputProgram.Args>().resources) new classes[r.kind](r.title, r.args as never);
}

/** The arguments the caller passes (`{ file, args }`). */
declare namespace badInputProgram {
  interface Args {
    resources: { kind: Kind; title: string; args: Record<string, unknown> }[];
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = badInputProgram;

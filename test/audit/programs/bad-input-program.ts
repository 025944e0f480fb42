/** The bad-input audit's program (test/audit/bad-input.test.ts): the given resources, declared in order. */
import type { CustomResource } from "@pulumi/pulumi";
import { programArgs } from "../../../engine";
import * as reseller from "../../../resources";
import type { Kind } from "../../../resources/shim";

export interface BadInputProgramArgs {
  resources: { kind: Kind; title: string; args: Record<string, unknown> }[];
}

type Constructor = new (name: string, args: never) => CustomResource;

export default function badInputProgram(): void {
  const classes = reseller as unknown as Record<Kind, Constructor>;
  for (const r of programArgs<BadInputProgramArgs>().resources) new classes[r.kind](r.title, r.args as never);
}

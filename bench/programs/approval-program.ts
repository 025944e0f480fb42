/** The polls bench's program: one registration the sandbox holds for the back office's approval. */
import { programArgs } from "../../engine/program-args";
import * as reseller from "../../resources";
import { BENCH_REGISTRANT } from "../registrant";

function approvalProgram(): void {
  const { domain } = programArgs<{ domain: string }>();
  new reseller.Domain("approved", { domain, contacts: { registrant: BENCH_REGISTRANT } });
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = approvalProgram;

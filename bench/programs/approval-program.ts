/** The polls bench's program: one registration the sandbox holds for the back office's approval. */
import { programArgs } from "../../engine";
import * as reseller from "../../resources";
import { BENCH_REGISTRANT } from "../registrant";

export default function approvalProgram(): void {
  const { domain } = programArgs<{ domain: string }>();
  new reseller.Domain("approved", { domain, contacts: { registrant: BENCH_REGISTRANT } });
}

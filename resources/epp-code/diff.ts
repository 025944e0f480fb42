/** EppCode's diff table (host side, offline): which fields replace it and which change in place. */
import { type EppCodeInputs } from "./state";
import { DiffResult, Held, diffFields } from "../kit/diff";

/** EppCode: a new domain or trigger value asks for a new code. */
export function diffEppCode(olds: Held<EppCodeInputs>, news: EppCodeInputs): DiffResult {
  return diffFields<EppCodeInputs, Held<EppCodeInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "trigger", mode: "replace" },
  ]);
}

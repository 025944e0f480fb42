/** ChildHost's diff table (host side, offline): which fields replace it and which change in place. */
import { type ChildHostInputs } from "./state";
import { canonicalIps } from "../shared/normalize";
import { DiffResult, Held, diffFields, setEqual } from "../kit/diff";

/** ChildHost: domain and hostname identify it; addresses change in place (order ignored). */
export function diffChildHost(olds: Held<ChildHostInputs>, news: ChildHostInputs): DiffResult {
  return diffFields<ChildHostInputs, Held<ChildHostInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "hostname", mode: "replace" },
    { key: "ipv4", mode: "update", equal: setEqual((v) => canonicalIps(v, 4)) },
    { key: "ipv6", mode: "update", equal: setEqual((v) => canonicalIps(v, 6)) },
  ]);
}

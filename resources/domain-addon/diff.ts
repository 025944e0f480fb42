/** PrivacyAddon's and Protection's diff table (host side, offline): which fields replace it and which change in place. */
import { type DomainAddonInputs } from "./state";
import { DiffResult, Held, diffFields } from "../host/diff";

/** PrivacyAddon and Protection: only the domain, which is a replace. */
export function diffDomainAddon(olds: Held<DomainAddonInputs>, news: DomainAddonInputs): DiffResult {
  return diffFields<DomainAddonInputs, Held<DomainAddonInputs>>(olds, news, [{ key: "domain", mode: "replace" }]);
}

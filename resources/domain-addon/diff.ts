/** PrivacyAddon's and Protection's diff table (host side, offline): which fields replace it and which change in place. */
import { type DomainAddonInputs } from "./state";
import { DiffResult, Held, diffFields } from "../kit/diff";

/** PrivacyAddon and Protection: the domain is a replace; maxPrice (a guard of the purchase) changes in place. */
export function diffDomainAddon(olds: Held<DomainAddonInputs>, news: DomainAddonInputs): DiffResult {
  return diffFields<DomainAddonInputs, Held<DomainAddonInputs>>(olds, news, [
    { key: "domain", mode: "replace" },
    { key: "maxPrice", mode: "update" },
  ]);
}

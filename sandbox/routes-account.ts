/** Account and catalogue endpoints: ping, tlds, availability, check, pricing, domain list, balance, tier. */
import { VALUES, VIEW_FIELDS } from "../api/contract";
import { isStage } from "../api/vocabulary";
import type { SandboxCore } from "./core";
import { invalid, missing } from "./errors";
import type { Handlers } from "./routes";
import { ok, page, type Ctx } from "./routing";
import { cents, type TldEntry } from "./state";
import { domainName, int, str } from "./validate";
import { PRICING_ACTIONS } from "../api/shapes";

function tldView(core: SandboxCore, t: TldEntry): Record<string, unknown> {
  const f = VIEW_FIELDS.tld;
  return {
    [f.extension]: t.tld,
    [f.register]: cents(t.register),
    [f.renew]: cents(t.renew),
    [f.transfer]: cents(t.transfer),
    restore_price: cents(t.restore),
    [f.currency]: core.state.account.currency,
    [f.minYears]: t.minYears,
    [f.maxYears]: t.maxYears,
    [f.kycRequired]: core.settings.kycTlds.includes(t.tld),
  };
}

/** The TLD of a name, or 422 naming the field. */
export function tldFor(core: SandboxCore, name: string, field = "domain"): TldEntry {
  const t = core.tldOf(name);
  if (!t) {
    throw invalid(field, name, `a second-level name under an offered TLD (${core.state.tlds.map((x) => x.tld).join(", ")})`);
  }
  return t;
}

export function yearsFor(body: Record<string, unknown>, t: TldEntry, dflt?: number): number {
  const v = body.years;
  if (v === undefined && dflt !== undefined) return dflt;
  if (v === undefined || v === null) throw missing("years", `an integer from ${t.minYears} to ${t.maxYears} for .${t.tld}`);
  if (typeof v !== "number" || !Number.isInteger(v) || v < t.minYears || v > t.maxYears) {
    throw invalid("years", v, `an integer from ${t.minYears} to ${t.maxYears} for .${t.tld}`);
  }
  return v;
}

function availability(core: SandboxCore, name: string, years: number | undefined): Record<string, unknown> {
  const t = core.tldOf(name);
  if (!t) return { domain: name, available: false, pricing: null, reason: "tld_not_offered" };
  const y = years ?? t.minYears;
  if (y < t.minYears || y > t.maxYears) return { domain: name, available: false, pricing: null, reason: "years_out_of_range" };
  const available = core.isAvailable(name);
  return {
    domain: name,
    available,
    pricing: { amount: cents(t.register * y), currency: core.state.account.currency },
    years: y,
    ...(available ? {} : { reason: "registered" }),
  };
}

const ping = (c: Ctx) =>
  ok({
    [VIEW_FIELDS.ping.account]: c.core.state.account.name,
    [VIEW_FIELDS.ping.currency]: c.core.state.account.currency,
    [VIEW_FIELDS.ping.balance]: cents(c.core.state.account.balance),
    [VIEW_FIELDS.ping.scopes]: [...c.cred.scopes],
  });

const tlds = (c: Ctx) => ok(page(c, c.core.state.tlds.map((t) => tldView(c.core, t))));

const availabilityBatch = (c: Ctx) => {
  const max = c.contract.availabilityBatch;
  const rule = `an array of 1 to ${max} domain names`;
  const list = c.body.domains;
  if (list === undefined || list === null) throw missing("domains", rule);
  if (!Array.isArray(list) || list.length < 1 || list.length > max) throw invalid("domains", Array.isArray(list) ? `${list.length} names` : list, rule);
  const years = c.body.years === undefined ? undefined : int(c.body, "years", 1, 10);
  const names = list.map((n, i) => domainName(n, `domains[${i}]`));
  return ok({ [VIEW_FIELDS.availability.results]: names.map((n) => availability(c.core, n, years)) });
};

const check = (c: Ctx) => {
  const name = domainName(c.body.domain);
  const years = c.body.years === undefined ? undefined : int(c.body, "years", 1, 10);
  return ok(availability(c.core, name, years));
};

const pricing = (c: Ctx) => {
  const f = VIEW_FIELDS.quote;
  const action = str(c.body, f.action, `one of ${PRICING_ACTIONS.join(", ")}`);
  if (!(PRICING_ACTIONS as readonly string[]).includes(action)) throw invalid(f.action, action, `one of ${PRICING_ACTIONS.join(", ")}`);
  const name = domainName(c.body[f.domain], f.domain);
  const t = tldFor(c.core, name, f.domain);
  const years = action === "restore" ? 1 : yearsFor(c.body, t, 1);
  const unit = action === "register" ? t.register : action === "renew" ? t.renew : action === "transfer" ? t.transfer : t.restore + t.renew;
  return ok({ [f.action]: action, [f.domain]: name, [f.years]: years, [f.amount]: cents(unit * years), [f.currency]: c.core.state.account.currency });
};

const listDomains = (c: Ctx) => {
  c.core.settleAll();
  const stage = c.query.get("stage");
  if (stage !== null && !isStage(stage)) throw invalid("stage", stage, `one of ${VALUES.stages.join(", ")}`);
  const all = Object.values(c.core.state.domains)
    .filter((d) => stage === null || d.stage === stage)
    .sort((a, b) => a.domain.localeCompare(b.domain));
  // Entries as the contract says they are (listEntries.domains): the information view, or its summary.
  const info = c.contract.listEntries.domains === "info";
  return ok(page(c, all.map((d) => (info ? c.core.domainInfo(d) : c.core.listEntry(d)))));
};

const balance = (c: Ctx) => {
  c.core.settleAll();
  const f = VIEW_FIELDS.balance;
  return ok({ [f.balance]: cents(c.core.state.account.balance), [f.currency]: c.core.state.account.currency, [f.activeDomains]: c.core.activeDomainCount() });
};

const tier = (c: Ctx) => {
  c.core.settleAll();
  return ok(c.core.tierView());
};

/** This file's operations (api/operations.ts), each with its handler. */
export const accountHandlers = {
  ping,
  listTlds: tlds,
  checkAvailability: availabilityBatch,
  checkDomain: check,
  quote: pricing,
  listDomains,
  getBalance: balance,
  getTier: tier,
} satisfies Partial<Handlers>;


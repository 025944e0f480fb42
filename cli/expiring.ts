/**
 * `reseller-pulumi expiring --days N [--state FILE]...`: the account's domains whose expiry falls
 * within N days, and for each whether a stack renews it. The service has no auto-renew; a Domain's
 * `renewal` policy renews only while `pulumi up` runs, so this is what a monitor asks nightly.
 *
 * "This stack renews it" is read from the stack's exported state (`pulumi stack export`, one
 * `--state` per stack, `-` for stdin): a Domain resource of that name whose `renewal` policy comes
 * due before the domain expires. The account is read with GET requests only.
 */
import { DAY_MS, renewalDue } from "../resources/domain/diff";
import { typeToken } from "../resources/kinds";
import { canonicalHost } from "../resources/shared/normalize";
import type { RenewalPolicy } from "../api/shapes";
import type { DomainInfo, DomainListEntry } from "../api/views";
import { isGoneStage, isProcessingStage, isRenewableStage } from "../api/vocabulary";

/** What the command reads of the account (api/client's ResellerClient has these). */
export interface ExpiryReader {
  listDomains(): Promise<DomainListEntry[]>;
  getDomain(domain: string): Promise<DomainInfo>;
}

/** A Domain of a stack's state: its stack, its resource name and its renewal policy (null: none). */
export interface DeclaredDomain {
  stack: string;
  resource: string;
  domain: string;
  /** The policy; null when the Domain has none; "secret" when the export holds it encrypted. */
  renewal: RenewalPolicy | null | "secret";
}

/** The signature Pulumi puts on a secret value in state and exports. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const isSecretValue = (v: unknown): boolean => typeof v === "object" && v !== null && (v as Record<string, unknown>)[SECRET_SIG] !== undefined;

type StateResource = { urn?: unknown; type?: unknown; inputs?: Record<string, unknown>; outputs?: Record<string, unknown>; delete?: unknown; external?: unknown };

/**
 * The Domains a stack's state declares. Takes `pulumi stack export` (`deployment.resources`), a
 * backend's checkpoint file (`checkpoint.latest.resources`) or a bare `resources` list.
 * `source` names the file in errors.
 */
export function declaredDomains(text: string, source: string): DeclaredDomain[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new StateFileError(`${source} is not JSON (${(e as Error).message}); give the output of \`pulumi stack export\``);
  }
  const d = doc as { deployment?: { resources?: unknown }; checkpoint?: { latest?: { resources?: unknown } }; resources?: unknown } | null;
  const resources = d?.deployment?.resources ?? d?.checkpoint?.latest?.resources ?? d?.resources;
  // A stack never updated exports a deployment without resources.
  if (resources === undefined && d?.deployment !== undefined) return [];
  if (!Array.isArray(resources)) throw new StateFileError(`${source} holds no stack state (no deployment.resources); give the output of \`pulumi stack export\``);
  const found: DeclaredDomain[] = [];
  for (const r of resources as StateResource[]) {
    // Pending deletes are on their way out, and external (`.get`) resources are read, never renewed.
    if (r.type !== typeToken("Domain") || r.delete === true || r.external === true) continue;
    const props = { ...r.inputs, ...r.outputs };
    if (typeof props.domain !== "string") continue;
    const urn = typeof r.urn === "string" ? r.urn.split("::") : [];
    const stack = urn.length >= 2 ? `${urn[1]}/${urn[0].replace(/^urn:pulumi:/, "")}` : source;
    const renewal = props.renewal;
    found.push({
      stack,
      resource: urn.length ? urn[urn.length - 1] : props.domain,
      domain: canonicalHost(props.domain),
      renewal: isSecretValue(renewal) ? "secret" : typeof renewal === "object" && renewal !== null ? (renewal as RenewalPolicy) : null,
    });
  }
  return found;
}

/** A state file that cannot be read as a stack's state. */
export class StateFileError extends Error {
  override readonly name = "StateFileError";
}

/** One domain inside the window, and what renews it. */
export interface ExpiringDomain {
  domain: string;
  stage: string;
  /** YYYY-MM-DD. */
  expiryDate: string;
  /** Whole days from now to the expiry (negative once expired). */
  daysLeft: number;
  /** A stack renews it before it expires (or, once expired, at its next `up`). */
  renewed: boolean;
  /** The stack and resource that renews it, or why nothing does. */
  by: string;
}

/** The date part (YYYY-MM-DD) of the expiry an entry states, if any. */
function expiryOf(entry: { expiry_date?: string | null; expires_at?: string | null }): string | undefined {
  const text = entry.expiry_date ?? entry.expires_at;
  return typeof text === "string" && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : undefined;
}

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The first day, from `nowMs` on and before the expiry, on which the policy asks for a renewal
 * (Domain's own rule, renewalDue); once expired, now if it asks now. Undefined: never in time.
 */
export function firstDueDay(policy: RenewalPolicy, expiryDate: string, nowMs: number): number | undefined {
  const expiryMs = Date.parse(`${expiryDate}T00:00:00Z`);
  if (expiryMs <= nowMs) return renewalDue(policy, expiryDate, nowMs) ? nowMs : undefined;
  // The days remaining change at midnight UTC (the expiry's time), so each midnight is one step.
  for (let t = nowMs; t < expiryMs; t = Math.floor(t / DAY_MS) * DAY_MS + DAY_MS) if (renewalDue(policy, expiryDate, t)) return t;
  return undefined;
}

/** What renews `domain` (of stage `stage`, expiring `expiryDate`) among the stacks' Domains. */
function renewer(domain: string, stage: string, expiryDate: string, declared: DeclaredDomain[], nowMs: number): { renewed: boolean; by: string } {
  const mine = declared.filter((d) => d.domain === domain);
  if (mine.length === 0) return { renewed: false, by: "nothing: no stack given declares it" };
  if (!isRenewableStage(stage) && !isProcessingStage(stage)) return { renewed: false, by: `nothing: the service renews no domain in stage ${stage} (restore or reactivate it in the portal)` };
  const why: string[] = [];
  for (const d of mine) {
    const where = `stack ${d.stack}, Domain "${d.resource}"`;
    if (d.renewal === null) why.push(`${where} has no renewal policy`);
    else if (d.renewal === "secret") why.push(`${where} has a renewal policy the export holds encrypted (export with --show-secrets)`);
    else {
      const due = firstDueDay(d.renewal, expiryDate, nowMs);
      if (due === undefined) why.push(`${where} renews only after the domain expires (minDaysRemaining ${d.renewal.minDaysRemaining ?? "default"}${d.renewal.notBefore ? `, notBefore ${d.renewal.notBefore}` : ""})`);
      else return { renewed: true, by: `${where}: ${due <= nowMs ? "due now, at the next pulumi up" : `at the first pulumi up from ${dayOf(due)}`}` };
    }
  }
  return { renewed: false, by: `nothing: ${why.join("; ")}` };
}

/**
 * The account's domains (gone ones aside) expiring within `days` days of `nowMs`, soonest first,
 * each with what renews it. An entry of the list without an expiry is read alone (GET).
 */
export async function expiringDomains(reader: ExpiryReader, days: number, declared: DeclaredDomain[], nowMs: number): Promise<ExpiringDomain[]> {
  const found: ExpiringDomain[] = [];
  for (const entry of await reader.listDomains()) {
    if (isGoneStage(entry.stage)) continue;
    let stage = entry.stage ?? "";
    let expiryDate = expiryOf(entry);
    if (expiryDate === undefined) {
      const info = await reader.getDomain(entry.domain);
      stage = info.stage ?? stage;
      expiryDate = expiryOf(info);
      if (expiryDate === undefined || isGoneStage(stage)) continue;
    }
    const daysLeft = Math.floor((Date.parse(`${expiryDate}T00:00:00Z`) - nowMs) / DAY_MS);
    if (daysLeft > days) continue;
    const domain = canonicalHost(entry.domain);
    found.push({ domain, stage, expiryDate, daysLeft, ...renewer(domain, stage, expiryDate, declared, nowMs) });
  }
  return found.sort((a, b) => a.daysLeft - b.daysLeft || a.domain.localeCompare(b.domain));
}

/** The report as lines: a heading, then one line per domain. */
export function formatExpiring(found: ExpiringDomain[], days: number, nowMs: number, stacks: number): string[] {
  const given = stacks === 0 ? "no stack state given (--state)" : `${stacks} stack state(s) given`;
  const head = `${found.length} domain(s) of the account expire within ${days} days of ${dayOf(nowMs)}; ${found.filter((f) => !f.renewed).length} with nothing to renew them (${given}).`;
  // Every column as wide as its widest cell, so each starts at one place on every row.
  const width = (cells: string[]) => Math.max(0, ...cells.map((c) => c.length));
  const left = found.map((f) => String(f.daysLeft));
  const [w1, w2, w3] = [width(found.map((f) => f.domain)), width(left), width(found.map((f) => f.stage))];
  const rows = found.map((f, i) => `  ${(f.renewed ? "ok" : "LAPSE").padEnd(5)}  ${f.domain.padEnd(w1)}  ${f.expiryDate}  ${left[i].padStart(w2)} day(s)  ${f.stage.padEnd(w3)}  renewed by ${f.by}`);
  return [head, ...rows];
}

/**
 * Compile-time proofs beside kind-tables.test.ts, checked by `npm run build` (tsconfig.json includes
 * this file; `npm test` builds before jest): every `@ts-expect-error` below must meet an error (an
 * unused one is itself an error), and the lines without one must compile. Not run; only compiled.
 */
import type { DnsZone, Domain, ZoneTemplate } from "../../resources";
import { outputNames, type OutputName } from "../../resources/program/output-names";
import type { SECRET_OUTPUTS_BY_KIND } from "../../resources/program/register";
import type { ZoneOutputs } from "../../resources/dns-zone/state";
import type { DomainOutputs } from "../../resources/domain/state";
import type { TemplateOutputs } from "../../resources/zone-template/state";
import type { HANDLERS, OutputsOf } from "../../resources/handlers";
import type { Kind } from "../../resources/kinds";

type Table = typeof HANDLERS;
declare const entry: Table[Kind];

// The handler table has an entry for every kind and none other.
export const complete: Table = { Domain: entry, DnsZone: entry, DnsRecord: entry, ZoneTemplate: entry, ChildHost: entry, PrivacyAddon: entry, Protection: entry, EppCode: entry, DnsZoneRecords: entry };
// @ts-expect-error -- a kind without its handler (EppCode left out)
export const missing: Table = { Domain: entry, DnsZone: entry, DnsRecord: entry, ZoneTemplate: entry, ChildHost: entry, PrivacyAddon: entry, Protection: entry, DnsZoneRecords: entry };
// @ts-expect-error -- an entry that is no kind
export const extra: Table = { ...complete, Dnssec: entry };
// The implementations' table has the same shape (runtime.ts `satisfies`): each kind's outputs are its handler's.
export const zoneOutputsHaveNameservers: OutputsOf<"DnsZone">["nameservers"] = ["ns1.example.net"];
// @ts-expect-error -- a kind's outputs are not another's (a zone has no recordId)
export const zoneOutputsHaveNoRecordId: OutputsOf<"DnsZone">["recordId"] = "r1";

// Output lists: names of the kind's outputs, covering what the class declares.
export const zoneList = outputNames<ZoneOutputs, DnsZone>()(["domain", "nameservers", "status", "delegated", "adopted"]);
// @ts-expect-error -- a misspelt output name
export const misspelt = outputNames<ZoneOutputs, DnsZone>()(["domain", "nameserver", "status", "delegated", "adopted"]);
// @ts-expect-error -- a name of another kind's outputs
export const stale = outputNames<ZoneOutputs, DnsZone>()(["domain", "nameservers", "status", "delegated", "adopted", "recordId"]);
// @ts-expect-error -- a declared output (`status`) left out of the list
export const unlisted = outputNames<ZoneOutputs, DnsZone>()(["domain", "nameservers", "delegated", "adopted"]);
// Outputs of the handler that the class does not declare may be listed (Domain keeps its inputs).
export const templateList = outputNames<TemplateOutputs, ZoneTemplate>()(["recordIds", "created", "replaced", "skipped", "adopted"]);
// @ts-expect-error -- Domain declares `contacts` and more; a list of one leaves them out
export const domainShort = outputNames<DomainOutputs, Domain>()(["domain"]);

// A resource class's output list names its kind's outputs: the type a class passes is its handler's.
export const zoneStateIsHandlers: ZoneOutputs = {} as OutputsOf<"DnsZone">;
export const zoneHandlersIsState: OutputsOf<"DnsZone"> = {} as ZoneOutputs;

// The secret outputs by kind (program/register.ts) are outputs of their kind.
type SecretOutputs = { readonly [K in Kind]?: readonly OutputName<OutputsOf<K>>[] };
export const secretOutputsAreOutputs: SecretOutputs = {} as typeof SECRET_OUTPUTS_BY_KIND;
// @ts-expect-error -- a secret output the kind does not have
export const secretOutputMisspelt: SecretOutputs = { Domain: ["contact"] };

import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { DnsZoneRecordsArgs } from "./args";
import type { ZoneRecordsOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/**
 * Records of a zone named as a literal wait for the program's Domain and DnsZone of that name, and for
 * its DnsRecords in that zone (../program/declaration-order.ts): a record moved out of this list into a
 * DnsRecord is then taken by the DnsRecord first and left in place here, in every order.
 */
export const ZONE_RECORDS_ORDER: DeclarationOrder = { name: "zone", after: ["Domain", "DnsZone", "DnsRecord"] };

/**
 * All the records of one zone as one resource, the way DNSControl and octoDNS declare a zone: one
 * list, one read of the zone, a plan of records added, changed and deleted, applied record by record
 * at the rate limit. When to choose it over DnsRecord: resources/zone-records/README.md, shipped in the
 * package.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * new reseller.DnsZoneRecords("shop-example", {
 *   zone: "shop.example",
 *   records: [
 *     { type: "A", name: "www", content: "192.0.2.10", ttl: 300 },
 *     { type: "MX", name: "@", content: "mx1.shop.example.", priority: 10 },
 *     { type: "TXT", name: "@", content: "v=spf1 mx -all" },
 *   ],
 *   authoritative: true, // delete records of the zone this list does not declare
 * });
 * ```
 */
export class DnsZoneRecords extends ResellerResource {
  /** The zone's domain (ASCII). */
  declare readonly zone: pulumi.Output<string>;
  /** The records held: their TTL in seconds by key `<name> <type> <rdata>` (e.g. `@ MX 10 mx1.example.com.`). */
  declare readonly records: pulumi.Output<Record<string, number>>;
  /** The service's id of each record held, by the same key. */
  declare readonly ids: pulumi.Output<Record<string, string>>;
  /** Keys of records in the zone that nobody in the stack declares, as last seen (left alone unless authoritative). */
  declare readonly unmanaged: pulumi.Output<string[]>;
  /** Keys of records in the zone that DnsRecords of the stack declare, as last seen (never touched here). */
  declare readonly elsewhere: pulumi.Output<string[]>;
  /** Whether records nobody in the stack declares are deleted. */
  declare readonly authoritative: pulumi.Output<boolean>;

  /**
   * Reads an existing DnsZoneRecords into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a DnsZoneRecords in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DnsZoneRecordsArgs>, opts?: ResellerResourceOptions): DnsZoneRecords {
    return new DnsZoneRecords(name, (state ?? {}) as DnsZoneRecordsArgs, { ...opts, id });
  }

  /** Whether `obj` is a DnsZoneRecords (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is DnsZoneRecords {
    return isResellerResource(obj, "DnsZoneRecords");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DnsZoneRecordsArgs, opts?: ResellerResourceOptions) {
    super("DnsZoneRecords", name, packed(args), outputNames<ZoneRecordsOutputs, DnsZoneRecords>()(["zone", "records", "ids", "unmanaged", "elsewhere", "authoritative"]), opts, ZONE_RECORDS_ORDER);
  }
}

/**
 * Records given as plain values travel to the provider as one JSON string (`recordsJson`, which
 * check reads as `records`): the SDK serializes an input by awaiting every value inside it, about
 * 0.2 ms of the program's CPU per record, so 10,000 records would cost seconds before the first
 * request. Records holding an Output or a promise go as they are.
 */
function packed(args: DnsZoneRecordsArgs): object {
  const list: unknown = args.records;
  if (!Array.isArray(list) || !list.every(isPlain)) return args;
  return { ...args, records: undefined, recordsJson: JSON.stringify(list) };
}

function isPlain(v: unknown): boolean {
  if (v === null || ["string", "number", "boolean", "undefined"].includes(typeof v)) return true;
  if (typeof v !== "object" || pulumi.Output.isInstance(v) || typeof (v as { then?: unknown }).then === "function") return false;
  return Object.values(v as object).every(isPlain);
}

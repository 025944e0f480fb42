/** The DnsRecord resource class (program side): registers it with its outputs; the work happens in the host (./handler.ts). */
import * as pulumi from "@pulumi/pulumi";
import type { RecordExtra } from "../../api/shapes";
import { outputNames } from "../program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "../program/register";
import type { DnsRecordArgs } from "./args";
import type { RecordOutputs } from "./state";
import type { DeclarationOrder } from "../program/declaration-order";

/**
 * A record of a zone named as a literal waits for the program's Domain and DnsZone of that name, and
 * for the program's DnsRecord of its RRset (zone, name and type, which share one TTL) declared before
 * it (../program/declaration-order.ts).
 */
export const DNS_RECORD_ORDER: DeclarationOrder = { name: "zone", after: ["Domain", "DnsZone"], peers: rrsetOf };

/** The RRset a record's literal arguments name: zone, name ("@" for the apex) and type; undefined when one is not a literal. */
function rrsetOf(args: Record<string, unknown>): string | undefined {
  const { zone, type } = args;
  const name = args.name ?? "@";
  if (typeof zone !== "string" || typeof type !== "string" || typeof name !== "string") return undefined;
  const z = zone.trim().toLowerCase().replace(/\.$/, "");
  let n = name.trim().toLowerCase().replace(/\.$/, "");
  if (n === "" || n === z) n = "@";
  else if (n.endsWith(`.${z}`)) n = n.slice(0, -z.length - 1);
  return `${z} ${n} ${type.trim().toUpperCase()}`;
}

/**
 * One DNS record. Content, ttl, priority and extra change in place; zone, type and name replace it,
 * creating the new record before deleting the old one, so the name never goes dark.
 *
 * Shared TTL: all records of one name and type share one TTL. `check` refuses a second record of the
 * same zone, name and type declaring another TTL (naming both resources), so no program can ask for
 * a state the service cannot hold, and a create refused with 409 ttl_conflict (an unmanaged sibling
 * with another TTL) says which TTL the siblings have.
 *
 * ## Example Usage
 *
 * ```typescript
 * import * as reseller from "reseller-pulumi";
 *
 * const www = new reseller.DnsRecord("www", { zone: "shop.example", type: "A", name: "www", content: "192.0.2.10", ttl: 300 });
 * new reseller.DnsRecord("mail", { zone: "shop.example", type: "MX", name: "@", content: "mx1.shop.example.", priority: 10 });
 * new reseller.DnsRecord("docs", { zone: "shop.example", type: "CNAME", name: "docs", content: "www.shop.example." });
 *
 * export const wwwFqdn = www.fqdn; // www.shop.example
 * ```
 */
export class DnsRecord extends ResellerResource {
  /** The service's record id. */
  declare readonly recordId: pulumi.Output<string>;
  /** Fully qualified name, e.g. www.example.com. */
  declare readonly fqdn: pulumi.Output<string>;
  /** The zone's domain (ASCII). */
  declare readonly zone: pulumi.Output<string>;
  /** Record type, upper case. */
  declare readonly type: pulumi.Output<string>;
  /** Canonical relative name ("@" for the apex). */
  declare readonly name: pulumi.Output<string>;
  /** Canonical content. */
  declare readonly content: pulumi.Output<string>;
  /** Seconds. */
  declare readonly ttl: pulumi.Output<number>;
  /** MX and SRV priority; null for other types. */
  declare readonly priority: pulumi.Output<number | null>;
  /** SRV weight and port, CAA flag and tag; null for other types. */
  declare readonly extra: pulumi.Output<RecordExtra | null>;
  /** True when the record was adopted rather than created. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing DnsRecord into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a DnsRecord in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DnsRecordArgs>, opts?: ResellerResourceOptions): DnsRecord {
    return new DnsRecord(name, (state ?? {}) as DnsRecordArgs, { ...opts, id });
  }

  /** Whether `obj` is a DnsRecord (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is DnsRecord {
    return isResellerResource(obj, "DnsRecord");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DnsRecordArgs, opts?: ResellerResourceOptions) {
    super(
      "DnsRecord",
      name,
      { ...args, name: args.name ?? "@" },
      outputNames<RecordOutputs, DnsRecord>()(["recordId", "fqdn", "zone", "type", "name", "content", "ttl", "priority", "extra", "adopted"]),
      opts,
      DNS_RECORD_ORDER,
    );
  }
}

import * as pulumi from "@pulumi/pulumi";
import type { RecordExtra } from "../provider/shapes";
import { outputNames } from "./program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "./program/register";

/** Arguments of a {@link DnsZone}. */
export interface DnsZoneArgs {
  /** The domain whose zone the service hosts. Changing it replaces the zone. */
  domain: pulumi.Input<string>;
  /** Take an existing zone into state without changing it (a second create would get 409 zone_exists). */
  adopt?: pulumi.Input<boolean>;
  /** After create, post the delegation check until the zone is delegated (bounded by waitTimeoutSeconds). */
  waitForDelegation?: pulumi.Input<boolean>;
  /** Seconds to wait for delegation, default 300. */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /** Delete the zone even when it holds records this stack does not manage (they are deleted with it). */
  forceDestroy?: pulumi.Input<boolean>;
}

/**
 * A DNS zone hosted by the service. Outputs the nameservers to delegate to. Deleting a zone deletes
 * all its records, so delete refuses while the zone holds records other than NS and SOA (the stack's
 * own DnsRecords are deleted first), unless `forceDestroy` is set.
 */
export class DnsZone extends ResellerResource {
  /** The zone's domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** The service's nameservers to delegate the domain to. */
  declare readonly nameservers: pulumi.Output<string[]>;
  /** e.g. pending_nameserver, active. */
  declare readonly status: pulumi.Output<string>;
  /** True once the domain uses the service's nameservers and a check saw it. */
  declare readonly delegated: pulumi.Output<boolean>;
  /** True when the zone was adopted rather than created. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing DnsZone into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a DnsZone in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DnsZoneArgs>, opts?: ResellerResourceOptions): DnsZone {
    return new DnsZone(name, (state ?? {}) as DnsZoneArgs, { ...opts, id });
  }

  /** Whether `obj` is a DnsZone (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is DnsZone {
    return isResellerResource(obj, "DnsZone");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DnsZoneArgs, opts?: ResellerResourceOptions) {
    super("DnsZone", name, args, outputNames<"DnsZone", DnsZone>()(["domain", "nameservers", "status", "delegated", "adopted"]), opts);
  }
}

/** SRV: weight and port. CAA: flag and tag. */
export type RecordExtraArgs = { [K in keyof RecordExtra]: pulumi.Input<RecordExtra[K]> };

/** A record's extra fields as the outputs hold them. */
export type { RecordExtra };

/** Arguments of a {@link DnsRecord}. */
export interface DnsRecordArgs {
  /** The zone (domain) the record belongs to. Changing it replaces the record. */
  zone: pulumi.Input<string>;
  /** Any record type: those of the record table (provider/records/README.md: A, AAAA, CNAME, MX, TXT, SRV, CAA, URI, SVCB, ...) are checked field by field, others passed through. Replace. */
  type: pulumi.Input<string>;
  /** Relative to the zone; "@" (default) is the apex. "www", "www.example.com" and "www.example.com." are the same. Replace. */
  name?: pulumi.Input<string>;
  /** The value. Targets are host names ("@" = apex, trailing dot optional); TXT unquoted or quoted; zone-file shorthand for MX/SRV/CAA is split into fields. */
  content: pulumi.Input<string>;
  /** Seconds, 60 to 86400, default 3600. Shared by all records of one name and type: records of one name and type declaring different TTLs are refused before anything changes. */
  ttl?: pulumi.Input<number>;
  /** Required for MX and SRV. */
  priority?: pulumi.Input<number>;
  /** Required for SRV ({weight, port}) and CAA ({flag, tag}). */
  extra?: pulumi.Input<RecordExtraArgs>;
  /** Take an existing record (same type and name; the content picks among several) into state. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * One DNS record. Content, ttl, priority and extra change in place; zone, type and name replace it,
 * creating the new record before deleting the old one, so the name never goes dark.
 *
 * Shared TTL: all records of one name and type share one TTL. `check` refuses a second record of the
 * same zone, name and type declaring another TTL (naming both resources), so no program can ask for
 * a state the service cannot hold, and a create refused with 409 ttl_conflict (an unmanaged sibling
 * with another TTL) says which TTL the siblings have.
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
      outputNames<"DnsRecord", DnsRecord>()(["recordId", "fqdn", "zone", "type", "name", "content", "ttl", "priority", "extra", "adopted"]),
      opts,
    );
  }
}

/** Arguments of a {@link ZoneTemplate}. */
export interface ZoneTemplateArgs {
  /** The zone (domain) to apply the template to. Changing it applies the template there instead. */
  zone: pulumi.Input<string>;
  /** Quick Setup template id (see the service's template list). */
  templateId: pulumi.Input<string>;
  /** Template variables, e.g. { mx_host: "mail.example.com" }. */
  variables?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** What to do with existing records the template would write: skip, replace or cancel (default). */
  conflictStrategy?: pulumi.Input<"skip" | "replace" | "cancel">;
  /** Take an already applied template into state (verifies template and zone exist; claims no records). */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A Quick Setup template applied to a zone. Another template or other variables apply it again
 * (delete-before-replace); delete removes the records this application created or replaced.
 */
export class ZoneTemplate extends ResellerResource {
  /** Ids of the records the application created or replaced (those still present after a refresh). */
  declare readonly recordIds: pulumi.Output<string[]>;
  /** How many records the application created. */
  declare readonly created: pulumi.Output<number>;
  /** How many existing records it replaced (conflictStrategy replace). */
  declare readonly replaced: pulumi.Output<number>;
  /** "TYPE name" of the records skipped (conflictStrategy skip). */
  declare readonly skipped: pulumi.Output<string[]>;

  /**
   * Reads an existing ZoneTemplate into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a ZoneTemplate in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ZoneTemplateArgs>, opts?: ResellerResourceOptions): ZoneTemplate {
    return new ZoneTemplate(name, (state ?? {}) as ZoneTemplateArgs, { ...opts, id });
  }

  /** Whether `obj` is a ZoneTemplate (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is ZoneTemplate {
    return isResellerResource(obj, "ZoneTemplate");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: ZoneTemplateArgs, opts?: ResellerResourceOptions) {
    super("ZoneTemplate", name, args, outputNames<"ZoneTemplate", ZoneTemplate>()(["recordIds", "created", "replaced", "skipped", "adopted"]), opts);
  }
}

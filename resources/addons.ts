import * as pulumi from "@pulumi/pulumi";
import { outputNames } from "./program/output-names";
import { isResellerResource, ResellerResource, type ResellerResourceOptions } from "./program/register";

/** Arguments of a {@link ChildHost}. */
export interface ChildHostArgs {
  /** The parent domain (held by the account). Changing it replaces the host. */
  domain: pulumi.Input<string>;
  /** Host name under the domain, e.g. "ns1.example.com" (a bare "ns1" is taken as relative). Replace. */
  hostname: pulumi.Input<string>;
  /** At least one IPv4 address (glue). Changed in place; order ignored. */
  ipv4: pulumi.Input<pulumi.Input<string>[]>;
  /** IPv6 addresses, may be empty. */
  ipv6?: pulumi.Input<pulumi.Input<string>[]>;
  /** Take an existing child host of that name into state instead of creating it: no change is made. */
  adopt?: pulumi.Input<boolean>;
}

/** A child nameserver (glue host) of a domain: full create, read, update, delete. */
export class ChildHost extends ResellerResource {
  /** The parent domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Canonical host name. */
  declare readonly hostname: pulumi.Output<string>;
  /** Canonical, sorted. */
  declare readonly ipv4: pulumi.Output<string[]>;
  /** Canonical (compressed), sorted. */
  declare readonly ipv6: pulumi.Output<string[]>;
  /** True when the host was adopted rather than created. */
  declare readonly adopted: pulumi.Output<boolean>;

  /**
   * Reads an existing ChildHost into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a ChildHost in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<ChildHostArgs>, opts?: ResellerResourceOptions): ChildHost {
    return new ChildHost(name, (state ?? {}) as ChildHostArgs, { ...opts, id });
  }

  /** Whether `obj` is a ChildHost (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is ChildHost {
    return isResellerResource(obj, "ChildHost");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: ChildHostArgs, opts?: ResellerResourceOptions) {
    super("ChildHost", name, { ipv6: [], ...args }, outputNames<"ChildHost", ChildHost>()(["domain", "hostname", "ipv4", "ipv6", "adopted"]), opts);
  }
}

/** An add-on purchase whose charge is unknown: its answer was lost or unreadable, and the service shows the add-on on. */
export interface UnconfirmedAddonOrder {
  /** privacy or protection. */
  operation: string;
  /** The Idempotency-Key it was sent with; the read-back replays it, never a new order. */
  idempotencyKey: string;
  /** Why it is unconfirmed. */
  reason: string;
  /** When it was sent, ISO 8601. */
  placedAt?: string;
}

/** Outputs of a purchased add-on that say what it cost. */
const ADDON_CHARGE_OUTPUTS = ["charged", "currency", "invoice", "unconfirmedOrder"] as const;

/** Arguments of a {@link PrivacyAddon} or a {@link Protection}. */
export interface DomainAddonArgs {
  /** The domain (held by the account). Changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Take the add-on, already on, into state: no purchase. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * WHOIS Privacy. Create buys it (for the rest of the term, under an Idempotency-Key from the URN)
 * and enables it; `status` is awaiting_verification until the registrant confirms by e-mail.
 * Delete disables privacy (the add-on stays bought for the term).
 */
export class PrivacyAddon extends ResellerResource {
  /** The domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Whether privacy is in force in WHOIS. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** e.g. awaiting_verification, active. */
  declare readonly status: pulumi.Output<string>;
  /** End of the paid term, ISO 8601. */
  declare readonly expiresAt: pulumi.Output<string | null>;
  /** True when the add-on was adopted rather than bought. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** What this resource's purchase charged, decimal string; null when adopted, taken over as found, or not stated by the service. */
  declare readonly charged: pulumi.Output<string | null>;
  /** Currency of `charged`, e.g. USD. */
  declare readonly currency: pulumi.Output<string | null>;
  /** Invoice number of the purchase, when the service gives one. */
  declare readonly invoice: pulumi.Output<string | null>;
  /** Set while the purchase may have been charged but its answer was lost or unreadable; the next `up` reads it back and sets `charged`. */
  declare readonly unconfirmedOrder: pulumi.Output<UnconfirmedAddonOrder | undefined>;

  /**
   * Reads an existing PrivacyAddon into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a PrivacyAddon in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DomainAddonArgs>, opts?: ResellerResourceOptions): PrivacyAddon {
    return new PrivacyAddon(name, (state ?? {}) as DomainAddonArgs, { ...opts, id });
  }

  /** Whether `obj` is a PrivacyAddon (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is PrivacyAddon {
    return isResellerResource(obj, "PrivacyAddon");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("PrivacyAddon", name, args, outputNames<"PrivacyAddon", PrivacyAddon>()(["domain", "enabled", "status", "expiresAt", "adopted", ...ADDON_CHARGE_OUTPUTS]), opts);
  }
}

/**
 * Domain Protection. Create buys and switches it on (Idempotency-Key from the URN). While on, the
 * registrar lock cannot be removed and no EPP code can be requested through the API. The API never
 * removes it: delete leaves it on and logs that it must be removed in the reseller portal.
 */
export class Protection extends ResellerResource {
  /** The domain (ASCII). */
  declare readonly domain: pulumi.Output<string>;
  /** Whether Domain Protection is on. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The service's status of the add-on, e.g. on. */
  declare readonly status: pulumi.Output<string>;
  /** True when the add-on was adopted rather than bought. */
  declare readonly adopted: pulumi.Output<boolean>;
  /** What this resource's purchase charged, decimal string; null when adopted, taken over as found, or not stated by the service. */
  declare readonly charged: pulumi.Output<string | null>;
  /** Currency of `charged`, e.g. USD. */
  declare readonly currency: pulumi.Output<string | null>;
  /** Invoice number of the purchase, when the service gives one. */
  declare readonly invoice: pulumi.Output<string | null>;
  /** Set while the purchase may have been charged but its answer was lost or unreadable; the next `up` reads it back and sets `charged`. */
  declare readonly unconfirmedOrder: pulumi.Output<UnconfirmedAddonOrder | undefined>;

  /**
   * Reads an existing Protection into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of a Protection in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<DomainAddonArgs>, opts?: ResellerResourceOptions): Protection {
    return new Protection(name, (state ?? {}) as DomainAddonArgs, { ...opts, id });
  }

  /** Whether `obj` is a Protection (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is Protection {
    return isResellerResource(obj, "Protection");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("Protection", name, args, outputNames<"Protection", Protection>()(["domain", "enabled", "status", "adopted", ...ADDON_CHARGE_OUTPUTS]), opts);
  }
}

/** Arguments of an {@link EppCode}. */
export interface EppCodeArgs {
  /** The domain whose transfer code is requested. Changing it requests a code for the new domain. */
  domain: pulumi.Input<string>;
  /** Any value; changing it requests a new code. */
  trigger?: pulumi.Input<string | number | boolean>;
}

/**
 * A transfer (EPP) code, requested deliberately: requesting one sets a new code at the registry and
 * e-mails the registrant, so it happens only when this resource is created or its `trigger` (or
 * domain) changes, never in preview or refresh. `authCode` is a secret output.
 */
export class EppCode extends ResellerResource {
  /** The transfer code (secret). */
  declare readonly authCode: pulumi.Output<string>;
  /** When this code was requested, ISO 8601. */
  declare readonly requestedAt: pulumi.Output<string>;

  /**
   * Reads an existing EppCode into the program, as Pulumi's `get` does: the engine reads it through
   * the provider and keeps it as an external resource, never changed or deleted by this stack.
   * @param name The resource's name in this program.
   * @param id Its id (what `id` of an EppCode in state holds).
   * @param state Values its id alone does not name (e.g. `zone`), passed to the read.
   * @param opts Resource options.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<EppCodeArgs>, opts?: ResellerResourceOptions): EppCode {
    return new EppCode(name, (state ?? {}) as EppCodeArgs, { ...opts, id });
  }

  /** Whether `obj` is an EppCode (also one made by another copy of this package). */
  static override isInstance(obj: any): obj is EppCode {
    return isResellerResource(obj, "EppCode");
  }

  /**
   * @param name The resource's name, unique in the stack.
   * @param args Its arguments.
   * @param opts Resource options; `provider` names another account.
   */
  constructor(name: string, args: EppCodeArgs, opts?: ResellerResourceOptions) {
    super("EppCode", name, args, outputNames<"EppCode", EppCode>()(["authCode", "requestedAt"]), opts);
  }
}

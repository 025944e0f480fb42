import * as pulumi from "@pulumi/pulumi";
import { ResellerResource, type ResellerResourceOptions } from "./register";

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
  adopt?: boolean;
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

  constructor(name: string, args: ChildHostArgs, opts?: ResellerResourceOptions) {
    super("ChildHost", name, { ipv6: [], ...args }, ["domain", "hostname", "ipv4", "ipv6", "adopted"], opts);
  }
}

/** Arguments of a {@link PrivacyAddon} or a {@link Protection}. */
export interface DomainAddonArgs {
  /** The domain (held by the account). Changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Take the add-on, already on, into state: no purchase. */
  adopt?: boolean;
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

  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("PrivacyAddon", name, args, ["domain", "enabled", "status", "expiresAt", "adopted"], opts);
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

  constructor(name: string, args: DomainAddonArgs, opts?: ResellerResourceOptions) {
    super("Protection", name, args, ["domain", "enabled", "status", "adopted"], opts);
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

  constructor(name: string, args: EppCodeArgs, opts?: ResellerResourceOptions) {
    super("EppCode", name, args, ["authCode", "requestedAt"], opts);
  }
}

/**
 * The provider object Pulumi serializes into every resource's `__provider`: a tiny object literal
 * whose methods require the implementation by package name at call time (never a path of this
 * machine, never a credential: those arrive through `configure`). The kind is the only captured
 * value. A test pins the serialized size (≤ 3 KB) and proves no secret is in it.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Resource kinds; each is also the type name in the token `pulumi-nodejs:dynamic/reseller:<Kind>`. */
export type Kind = "Domain" | "DnsZone" | "DnsRecord" | "ChildHost" | "PrivacyAddon" | "Protection" | "EppCode" | "ZoneTemplate";

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * One provider object per kind (and account): the SDK caches the serialized text per provider
 * object, so the resources of one kind are serialized once, not once each (200 records cost
 * seconds otherwise). The default account's text is the one older states hold, unchanged.
 */
export function shim(kind: Kind, account?: string): pulumi.dynamic.ResourceProvider {
  const key = account ? `${kind}\u0000${account}` : kind;
  let p = shims.get(key);
  if (!p) shims.set(key, (p = account ? makeAccountShim(kind, account) : makeShim(kind)));
  return p;
}

/** A shim for another account: captures its config namespace (a name, never a credential) and passes it on. */
function makeAccountShim(kind: Kind, account: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("reseller-pulumi/dist/resources/runtime").configure(kind, req, account),
    check: (olds, news) => require("reseller-pulumi/dist/resources/runtime").check(kind, olds, news, account),
    diff: (id, olds, news) => require("reseller-pulumi/dist/resources/runtime").diff(kind, id, olds, news, account),
    create: (inputs) => require("reseller-pulumi/dist/resources/runtime").create(kind, inputs, account),
    read: (id, props) => require("reseller-pulumi/dist/resources/runtime").read(kind, id, props, account),
    update: (id, olds, news) => require("reseller-pulumi/dist/resources/runtime").update(kind, id, olds, news, account),
    delete: (id, props) => require("reseller-pulumi/dist/resources/runtime").delete(kind, id, props, account),
  };
}

function makeShim(kind: Kind): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("reseller-pulumi/dist/resources/runtime").configure(kind, req),
    check: (olds, news) => require("reseller-pulumi/dist/resources/runtime").check(kind, olds, news),
    diff: (id, olds, news) => require("reseller-pulumi/dist/resources/runtime").diff(kind, id, olds, news),
    create: (inputs) => require("reseller-pulumi/dist/resources/runtime").create(kind, inputs),
    read: (id, props) => require("reseller-pulumi/dist/resources/runtime").read(kind, id, props),
    update: (id, olds, news) => require("reseller-pulumi/dist/resources/runtime").update(kind, id, olds, news),
    delete: (id, props) => require("reseller-pulumi/dist/resources/runtime").delete(kind, id, props),
  };
}

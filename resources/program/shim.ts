/**
 * The provider object Pulumi serializes into every resource's `__provider` (stored twice per
 * resource, in its inputs and its outputs, so its size is most of the state). One object for every
 * kind, three small functions that require the implementation by package name at call time (never
 * a path of this machine, never a credential: those arrive through `configure`). Nothing is
 * captured: the kind is read from the resource's URN (`resourceUrn`, an input and an output of
 * every resource). The host calls configure, check, diff, create and read through one function,
 * told apart by their arguments (../host/dispatch.ts `dispatch`, behind ../runtime.ts); update and delete, whose arguments look
 * like diff's and read's, have their own. A test pins the size (≤ 1.2 KB) and proves no secret is in it.
 *
 * States written before this kept a per-kind text that captures the kind and calls
 * `runtime.<method>(kind, ...)`: those exports stay, so old states refresh and destroy as before.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Kind } from "../kinds";

const dispatch = (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").dispatch(...a);
const update = (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").updateByUrn(...a);
const remove = (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").deleteByUrn(...a);

/**
 * The SDK caches the serialized text per provider object, so one object for all kinds is
 * serialized once per program, and the host deserializes and configures it once.
 */
const provider: pulumi.dynamic.ResourceProvider = {
  configure: dispatch,
  check: dispatch,
  diff: dispatch,
  create: dispatch,
  read: dispatch,
  update,
  delete: remove,
};

const accountProviders = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * The provider of a resource kind: the same object for every kind of the default account, and one
 * per other account (resource option `account`), which captures that account's config namespace:
 * a name, never a credential.
 */
export function shim(_kind?: Kind, account?: string): pulumi.dynamic.ResourceProvider {
  if (!account) return provider;
  let p = accountProviders.get(account);
  if (!p) accountProviders.set(account, (p = accountProvider(account)));
  return p;
}

function accountProvider(account: string): pulumi.dynamic.ResourceProvider {
  const dispatchIn = (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").dispatchIn(account, ...a);
  return {
    configure: dispatchIn,
    check: dispatchIn,
    diff: dispatchIn,
    create: dispatchIn,
    read: dispatchIn,
    update: (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").updateByUrnIn(account, ...a),
    delete: (...a: unknown[]) => require("reseller-pulumi/dist/resources/runtime").deleteByUrnIn(account, ...a),
  };
}

/**
 * The `__provider` text of the default account's resources, serialized as the SDK's
 * `dynamic.Resource` serializes a provider (`serializeFunction(() => provider)`), so it is the text a
 * program of this version stores. `reseller-pulumi import` writes it into the import file: the
 * provider host reads a resource's provider from it (Read alone is never given it, pulumi/pulumi#3550).
 * Loads `@pulumi/pulumi` (a peer dependency) on first call.
 */
export async function serializedShim(): Promise<string> {
  const { runtime } = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const provider = shim();
  return (await runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

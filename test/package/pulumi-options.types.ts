/**
 * Pulumi's own option types passed to every resource and function, as wrapper code passes them on:
 * a component forwards its `pulumi.CustomResourceOptions` (or `ComponentResourceOptions`) with
 * `{ ...opts, parent: this }`, and its `pulumi.InvokeOptions` / `InvokeOutputOptions` to functions.
 * Compiled twice: by `npm run build` (tsconfig.json, "reseller-pulumi" mapped to the sources), and by
 * pulumi-options.test.ts under Pulumi's template tsconfig against the built declarations, as a
 * user's project compiles it. Each `@ts-expect-error` must meet an error; the other lines must
 * compile. Not run; only compiled.
 */
import * as pulumi from "@pulumi/pulumi";
import * as reseller from "reseller-pulumi";

/**
 * The options Pulumi's own `…Output` functions take: `pulumi.InvokeOutputOptions` on the SDKs that
 * have it (3.141.0 and later), `pulumi.InvokeOptions` on the older ones the package supports
 * (3.139.0, the test matrix's lowest cell), where naming the newer type would not compile.
 */
type InvokeOutputOptions = NonNullable<Parameters<typeof pulumi.runtime.invokeOutput>[2]>;

/** A wrapper given Pulumi's custom resource options, passing them on to every resource. */
export class ShopDns extends pulumi.ComponentResource {
  constructor(name: string, opts: pulumi.CustomResourceOptions, invoke: pulumi.InvokeOptions, invokeOutput: InvokeOutputOptions) {
    super("example:index:ShopDns", name, {}, { parent: opts.parent });
    const child = { ...opts, parent: this };
    const domain = new reseller.Domain(`${name}-domain`, { domain: "shop.example", adopt: true }, child);
    const zone = new reseller.DnsZone(`${name}-zone`, { domain: domain.domain }, child);
    new reseller.DnsRecord(`${name}-www`, { zone: zone.domain, type: "CNAME", name: "www", content: "shop.example." }, child);
    new reseller.DnsZoneRecords(`${name}-records`, { zone: zone.domain, records: [{ type: "TXT", content: "v=spf1 -all" }] }, opts);
    new reseller.ChildHost(`${name}-ns1`, { domain: domain.domain, hostname: "ns1", ipv4: ["192.0.2.1"] }, { ...opts, parent: this, dependsOn: [domain] });
    new reseller.PrivacyAddon(`${name}-privacy`, { domain: domain.domain }, child);
    new reseller.Protection(`${name}-protection`, { domain: domain.domain }, { ...opts, protect: true });
    new reseller.ZoneTemplate(`${name}-mail`, { zone: zone.domain, templateId: "mail", variables: { mx_host: "mx.shop.example" } }, child);
    new reseller.EppCode(`${name}-epp`, { domain: domain.domain }, child);
    reseller.DnsRecord.get(`${name}-existing`, "rec_1", { zone: "shop.example" }, child);

    // Functions given Pulumi's invoke options as they are.
    void reseller.getZone({ domain: "shop.example" }, invoke);
    void reseller.getDomain({ domain: "shop.example" }, { ...invoke, parent: this });
    void reseller.getRecords({ zone: "shop.example", type: "MX" }, invoke);
    void reseller.getBalance({}, invoke);
    void reseller.checkDomain({ domain: "shop.example" }, { ...invoke, parent: this });
    void reseller.getPricing({ action: "renew", domain: "shop.example" }, invoke);
    reseller.getZoneOutput({ domain: zone.domain }, invokeOutput);
    reseller.getDomainOutput({ domain: domain.domain }, { ...invokeOutput, dependsOn: [domain] });
    reseller.getRecordsOutput({ zone: zone.domain, name: "www" }, invokeOutput);
    reseller.getTldsOutput({}, invokeOutput);
    reseller.getPricingOutput({ action: "renew", domain: domain.domain }, { ...invokeOutput, dependsOn: [domain] });
    reseller.getTemplatesOutput({}, invoke);
    this.registerOutputs({});
  }
}

/** A wrapper given component options (they may carry `providers`) passes them on too. */
export class Records extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("example:index:Records", name, {}, opts);
    new reseller.DnsRecord(`${name}-apex`, { zone: "shop.example", type: "A", content: "192.0.2.10" }, { ...opts, parent: this });
    this.registerOutputs({});
  }
}

// The reseller Provider is still what names another account.
const eu = new reseller.Provider("eu", { configNamespace: "reseller-eu" });
export const euZone = new reseller.DnsZone("eu-zone", { domain: "shop.eu" }, { provider: eu, protect: true });
export const euBalance = reseller.getBalanceOutput({}, { provider: eu });

// Still refused at compile time: a misspelt option, and options that are not options.
// @ts-expect-error -- `protekt` is no resource option
export const misspelt = new reseller.DnsZone("typo", { domain: "shop.example" }, { protekt: true });
// @ts-expect-error -- a provider option that is no provider at all
export const notAProvider = reseller.getTier({}, { provider: "reseller-eu" });

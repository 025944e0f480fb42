/**
 * The secret audit's program (test/audit/secrets.test.ts): a registration with contacts, a transfer
 * with an auth code, an EPP code, WHOIS Privacy, a zone and a record, a read-only function, and
 * optionally a registration the service refuses. Its stack outputs mix plain and secret values.
 */
import { programArgs } from "../../../dev/engine/program-args";
import * as reseller from "../../../resources";

async function secretsProgram() {
  const a = programArgs<secretsProgram.Args>();
  const reg = new reseller.Domain("reg", {
    domain: a.reg,
    contacts: { registrant: a.registrant },
    nameservers: ["ns1.dns.sandbox.test", "ns2.dns.sandbox.test"],
    maxPrice: "15.00",
  });
  const xfer = new reseller.Domain("xfer", {
    domain: a.xfer,
    authCode: a.authCode,
    contacts: { registrant: a.xferRegistrant, admin: a.registrant },
  });
  const code = new reseller.EppCode("code", { domain: reg.domain, trigger: "one" });
  const privacy = new reseller.PrivacyAddon("privacy", { domain: reg.domain });
  const zone = new reseller.DnsZone("zone", { domain: reg.domain, waitForDelegation: true, waitTimeoutSeconds: 30 });
  new reseller.DnsRecord("txt", { zone: zone.domain, type: "TXT", name: "@", content: "audit-visible-record" });
  if (a.bad) new reseller.Domain("bad", { domain: a.bad.domain, contacts: { registrant: a.bad.registrant } });
  const quote = await reseller.getPricing({ action: "register", domain: "another-audit-name.com", years: 1 });
  return {
    regName: reg.domain,
    regStage: reg.stage,
    xferStage: xfer.stage,
    regExpiry: reg.expiryDate,
    privacyStatus: privacy.status,
    quote: quote.amount,
    eppCode: code.authCode,
    contacts: reg.contacts,
  };
}

/** The arguments the caller passes (`{ file, args }`). */
declare namespace secretsProgram {
  interface Args {
    reg: string;
    xfer: string;
    authCode: string;
    registrant: reseller.ContactArgs;
    xferRegistrant: reseller.ContactArgs;
    /** A third registration, refused by the service on this registrant. */
    bad?: { domain: string; registrant: reseller.ContactArgs };
  }
}

// The CLI's runner (@pulumi/pulumi/cmd/run) calls `module.exports` when it is a function; it would
// not call a CommonJS `exports.default`.
export = secretsProgram;

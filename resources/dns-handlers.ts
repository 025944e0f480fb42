/** DnsZone, DnsRecord and ZoneTemplate. */
import { waitProgress } from "./progress";
import type { DnsRecord, DnsZone, DnsZoneWithRecords, RecordInput, ConflictStrategy } from "../provider/views";
import { errorCode, hasCode, isNotFound, isOutcomeUnknown, type ResellerApi } from "./api";
import {
  client,
  defined,
  info,
  invalidateZone,
  limits,
  primeZoneRecords,
  registerTtl,
  resourceName,
  sleep,
  unregisterTtl,
  warn,
  zoneRecords,
} from "./context";
import { diffRecord, diffTemplate, diffZone } from "./diff";
import { GONE, type Handler, type Props } from "./handler";
import { canonicalRecord, fqdn, sameJson, type CanonicalRecord } from "./normalize";
import { checkRecordInputs, checkTemplateInputs, checkZoneInputs, containsUnknown } from "./validate";

export const DEFAULT_DELEGATION_WAIT_SECONDS = 300;
const CHECK_INTERVAL_MS = 5000;
/** Records the service manages itself (spec: "NS records are managed by the service"). */
const SERVICE_TYPES = new Set(["NS", "SOA"]);

async function getZoneOrUndefined(api: ResellerApi, domain: string): Promise<DnsZoneWithRecords | undefined> {
  try {
    const z = await api.getZone(domain);
    primeZoneRecords(domain, z.records ?? []);
    return z;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

function zoneOutputs(inputs: Props, z: DnsZone, adopted: boolean): Props {
  return defined({
    ...inputs,
    domain: z.domain,
    nameservers: z.nameservers,
    status: z.status,
    delegated: z.delegated,
    adopted,
  });
}

/** Posts the delegation check until the zone is delegated or the deadline passes (bounded; logged). */
async function waitForDelegation(api: ResellerApi, domain: string, seconds: number, now = Date.now): Promise<void> {
  const deadline = now() + seconds * 1000;
  let z = await api.checkZone(domain);
  const progress = waitProgress(domain, `delegation to ${z.nameservers.join(", ")}`, deadline, info, now);
  while (!z.delegated && now() < deadline) {
    progress(`zone ${z.status}; posting the zone check every ${CHECK_INTERVAL_MS / 1000} s`);
    await sleep(Math.min(CHECK_INTERVAL_MS, Math.max(0, deadline - now())));
    z = await api.checkZone(domain);
  }
  if (!z.delegated) warn(`${domain}: not delegated after ${seconds} s (status ${z.status}); point the domain's nameservers at ${z.nameservers.join(", ")}. Records cannot be changed until the zone is active.`);
}

export const zoneHandler: Handler = {
  check: (_olds, news) => checkZoneInputs(news),
  diff: (_id, olds, news) => diffZone(olds, news),

  async create(inputs) {
    const api = client();
    const domain = inputs.domain as string;
    if (inputs.adopt) {
      const z = await getZoneOrUndefined(api, domain);
      if (!z) throw new Error(`adopt: there is no DNS zone for ${domain} on the service; remove adopt to create it`);
      info(`${domain}: zone adopted (${z.records_count} records); nothing changed`);
      return { id: domain, outs: zoneOutputs(inputs, z, true) };
    }
    try {
      await api.createZone(domain);
    } catch (e) {
      // No answer: the zone may have been made; the read below decides.
      if (isOutcomeUnknown(e) && (await getZoneOrUndefined(api, domain))) warn(`${domain}: no answer to the zone create, but the zone exists; taking it`);
      else if (hasCode(e, "zone_exists"))
        throw new Error(`${domain}: a DNS zone already exists on the service and is never overwritten. Set adopt: true to manage it, or delete it in the reseller portal first.`);
      else throw e;
    }
    if (inputs.waitForDelegation) await waitForDelegation(api, domain, (inputs.waitTimeoutSeconds as number | undefined) ?? DEFAULT_DELEGATION_WAIT_SECONDS);
    const z = (await getZoneOrUndefined(api, domain))!;
    return { id: domain, outs: zoneOutputs(inputs, z, false) };
  },

  async read(id, props) {
    const z = await getZoneOrUndefined(client(), id);
    return z ? { id, props: zoneOutputs(props, z, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const api = client();
    if (news.waitForDelegation && !olds.delegated)
      await waitForDelegation(api, id, (news.waitTimeoutSeconds as number | undefined) ?? DEFAULT_DELEGATION_WAIT_SECONDS);
    const z = await getZoneOrUndefined(api, id);
    if (!z) throw new Error(`${id}: the DNS zone no longer exists on the service; run pulumi refresh to drop it from state, then up to create it again`);
    return { outs: zoneOutputs(news, z, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const api = client();
    const z = await getZoneOrUndefined(api, id);
    if (!z) return;
    // Managed records are deleted before their zone (they depend on it), so what is left is not ours.
    const others = (z.records ?? []).filter((r) => !SERVICE_TYPES.has(r.type.toUpperCase()));
    if (others.length && !props.forceDestroy) {
      const list = others.slice(0, 5).map((r) => `${r.type} ${r.name}`).join(", ");
      throw new Error(
        `${id}: refusing to delete the zone: it still holds ${others.length} record(s) this stack does not manage (${list}${others.length > 5 ? ", ..." : ""}). Deleting a zone deletes all its records. Remove them, or set forceDestroy: true on the DnsZone.`,
      );
    }
    await api.deleteZone(id);
    invalidateZone(id);
    info(`${id}: zone deleted${others.length ? ` with ${others.length} unmanaged record(s) (forceDestroy)` : ""}`);
  },
};

/** The record in canonical form, as outputs carry it. */
function recordOutputs(inputs: Props, zone: string, live: DnsRecord, adopted: boolean): Props {
  const c = canonicalRecord(live, zone);
  return defined({ ...inputs, zone, ...c, recordId: live.id, fqdn: fqdn(c.name, zone), adopted });
}

function toRequest(c: CanonicalRecord): RecordInput {
  return defined({ type: c.type, name: c.name, content: c.content, ttl: c.ttl, priority: c.priority, extra: c.extra as RecordInput["extra"] });
}

const canonicalOf = (p: Props, zone: string): CanonicalRecord =>
  canonicalRecord({ type: p.type as string, name: p.name as string, content: p.content as string, ttl: p.ttl as number, priority: p.priority as number | null, extra: p.extra as CanonicalRecord["extra"] }, zone);

/** A clear message for the shared-TTL refusal, naming the TTL the siblings have. */
async function ttlConflictMessage(zone: string, c: CanonicalRecord): Promise<string> {
  let sibling = "";
  try {
    invalidateZone(zone);
    const same = (await zoneRecords(zone)).map((r) => canonicalRecord(r, zone)).filter((r) => r.type === c.type && r.name === c.name);
    if (same.length) sibling = ` (they have ttl ${same[0].ttl})`;
  } catch {
    /* the message stays useful without it */
  }
  return `${c.type} ${fqdn(c.name, zone)}: ttl_conflict: the service refused ttl ${c.ttl} because other ${c.type} records of this name have another TTL${sibling}. All records of one name and type share one TTL: give every one of them the same ttl.`;
}

export const recordHandler: Handler = {
  check(_olds, news) {
    const result = checkRecordInputs(news, limits());
    const i = result.inputs;
    if (result.failures.length === 0 && typeof i.resourceUrn === "string" && !containsUnknown([i.zone, i.name, i.type, i.ttl])) {
      const clash = registerTtl(i.resourceUrn, i.zone as string, i.name as string, i.type as string, i.ttl as number);
      if (clash)
        result.failures.push({
          property: "ttl",
          reason: `ttl: ${i.ttl} differs from ttl ${clash.ttl} of "${resourceName(clash.urn)}", another ${i.type} record named ${i.name} in ${i.zone}: records of one name and type share one TTL, so give "${resourceName(i.resourceUrn)}" and "${resourceName(clash.urn)}" the same ttl`,
        });
    }
    return result;
  },

  diff: (_id, olds, news) => ({ ...diffRecord(olds, news), deleteBeforeReplace: false }),

  async create(inputs) {
    const api = client();
    const zone = inputs.zone as string;
    const want = canonicalOf(inputs, zone);
    if (inputs.adopt) {
      const live = (await zoneRecords(zone)).filter((r) => {
        const c = canonicalRecord(r, zone);
        return c.type === want.type && c.name === want.name;
      });
      const exact = live.find((r) => canonicalRecord(r, zone).content === want.content);
      const pick = exact ?? (live.length === 1 ? live[0] : undefined);
      if (!pick)
        throw new Error(
          `adopt: no ${want.type} record named ${want.name} in ${zone}${live.length > 1 ? ` has content ${JSON.stringify(want.content)} (${live.length} records of that name and type; the content decides which one)` : ""}; remove adopt to create it`,
        );
      return { id: pick.id, outs: recordOutputs(inputs, zone, pick, true) };
    }
    let created: DnsRecord;
    try {
      created = await api.createRecord(zone, toRequest(want));
    } catch (e) {
      // No answer: the create may have been applied. Refused as invalid: the record may exist already,
      // made by an earlier create whose answer was lost (timed out, or the provider host died first),
      // and the service refuses an identical record. Either way a record of this type, name and
      // content is taken as ours.
      if (isOutcomeUnknown(e) || hasCode(e, "validation_error")) {
        invalidateZone(zone);
        const found = (await zoneRecords(zone)).find((r) => sameJson(canonicalRecord(r, zone), { ...want, ttl: canonicalRecord(r, zone).ttl }));
        if (found) {
          if (!isOutcomeUnknown(e)) warn(`${want.type} ${fqdn(want.name, zone)}: the record exists already (an earlier create whose answer was lost); taking it`);
          return { id: found.id, outs: recordOutputs(inputs, zone, found, false) };
        }
        if (isOutcomeUnknown(e))
          throw new Error(`${want.type} ${fqdn(want.name, zone)}: no answer to the create and no such record is in the zone yet; the create may still be applied. Run again: a record that appears is taken as this one.`);
      }
      if (hasCode(e, "ttl_conflict")) throw new Error(await ttlConflictMessage(zone, want));
      if (hasCode(e, "zone_not_active")) throw new Error(`${zone}: the zone is not active yet (not delegated), so records cannot be created; delegate the domain to the zone's nameservers (DnsZone waitForDelegation: true waits for it)`);
      throw e;
    } finally {
      invalidateZone(zone);
    }
    return { id: created.id, outs: recordOutputs(inputs, zone, created, false) };
  },

  async read(id, props) {
    const zone = props.zone as string;
    let records: DnsRecord[];
    try {
      records = await zoneRecords(zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const live = records.find((r) => r.id === id);
    return live ? { id, props: recordOutputs(props, zone, live, (props.adopted as boolean | undefined) ?? false) } : GONE;
  },

  async update(id, olds, news) {
    const api = client();
    const zone = news.zone as string;
    const want = canonicalOf(news, zone);
    const had = canonicalOf(olds, zone);
    const patch: Partial<RecordInput> = {};
    if (want.content !== had.content) patch.content = want.content;
    if (want.ttl !== had.ttl) patch.ttl = want.ttl;
    if (want.priority !== had.priority) patch.priority = want.priority;
    if (!sameJson(want.extra, had.extra)) patch.extra = want.extra as RecordInput["extra"];
    if (Object.keys(patch).length === 0) return { outs: { ...olds, ...news } };
    let updated: DnsRecord;
    try {
      updated = await api.updateRecord(zone, id, patch);
    } finally {
      invalidateZone(zone);
    }
    if (patch.ttl !== undefined) info(`${want.type} ${fqdn(want.name, zone)}: ttl ${patch.ttl} applies to every ${want.type} record of this name (shared TTL)`);
    const merged: DnsRecord = { ...updated, id: updated?.id ?? id, type: updated?.type ?? want.type, name: updated?.name ?? want.name, content: updated?.content ?? want.content, ttl: updated?.ttl ?? want.ttl };
    return { outs: recordOutputs(news, zone, merged, (olds.adopted as boolean | undefined) ?? false) };
  },

  async delete(id, props) {
    const zone = props.zone as string;
    try {
      await client().deleteRecord(zone, id);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    } finally {
      invalidateZone(zone);
      if (typeof props.resourceUrn === "string") unregisterTtl(props.resourceUrn);
    }
  },
};

function templateOutputs(inputs: Props, extra: Props): Props {
  return defined({ ...inputs, ...extra });
}

export const templateHandler: Handler = {
  check: (_olds, news) => checkTemplateInputs(news),
  diff: (_id, olds, news) => diffTemplate(olds, news),

  async create(inputs) {
    const api = client();
    const zone = inputs.zone as string;
    const templateId = inputs.templateId as string;
    const id = `${zone}/${templateId}`;
    if (inputs.adopt) {
      const templates = await api.listTemplates();
      if (!templates.some((t) => t.id === templateId)) throw new Error(`adopt: there is no template ${templateId}`);
      if (!(await getZoneOrUndefined(api, zone))) throw new Error(`adopt: there is no DNS zone for ${zone}`);
      return { id, outs: templateOutputs(inputs, { recordIds: [], created: 0, replaced: 0, skipped: [], adopted: true }) };
    }
    try {
      const res = await api.applyTemplate(zone, templateId, {
        variables: (inputs.variables as Record<string, string>) ?? {},
        conflict_strategy: (inputs.conflictStrategy as ConflictStrategy) ?? "cancel",
      });
      let ids = [...res.created, ...res.replaced].map((r) => r.id);
      if (res.replaced.length) {
        // `replaced` may name the records the apply deleted (the sandbox's reading; the spec is silent):
        // keep only ids that exist, or the first refresh would show recordIds shrinking.
        invalidateZone(zone);
        const present = new Set((await zoneRecords(zone)).map((r) => r.id));
        ids = ids.filter((i) => present.has(i));
      }
      return {
        id,
        outs: templateOutputs(inputs, {
          recordIds: ids,
          created: res.created.length,
          replaced: res.replaced.length,
          skipped: res.skipped.map((s) => `${s.type} ${s.name}`),
          adopted: false,
        }),
      };
    } catch (e) {
      if (errorCode(e) === "template_conflict")
        throw new Error(`${zone}: template ${templateId} meets existing records and conflictStrategy is cancel; nothing was changed. Use conflictStrategy "skip" or "replace". (${(e as Error).message})`);
      throw e;
    } finally {
      invalidateZone(zone);
    }
  },

  async read(id, props) {
    const zone = props.zone as string;
    let records: DnsRecord[];
    try {
      records = await zoneRecords(zone);
    } catch (e) {
      if (isNotFound(e)) return GONE;
      throw e;
    }
    const present = new Set(records.map((r) => r.id));
    return { id, props: { ...props, recordIds: ((props.recordIds as string[]) ?? []).filter((r) => present.has(r)) } };
  },

  async update(_id, olds, news) {
    return { outs: templateOutputs(news, { recordIds: olds.recordIds, created: olds.created, replaced: olds.replaced, skipped: olds.skipped, adopted: olds.adopted }) };
  },

  async delete(_id, props) {
    const zone = props.zone as string;
    const api = client();
    for (const recordId of (props.recordIds as string[]) ?? []) {
      try {
        await api.deleteRecord(zone, recordId);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    invalidateZone(zone);
  },
};

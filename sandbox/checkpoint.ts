/**
 * All-or-nothing for one request without cloning the whole state before each write (a deep clone
 * made every record create cost as much as the records already there). Everything but the zones'
 * record lists is small and cloned; a record list is kept as a copy of its references, which is
 * enough because record entries are never changed in place: a change replaces the entry
 * (routes-dns.ts putRecord), a delete filters it out, a create pushes a new one. The stored
 * idempotent answers are kept the same way, as a copy of the map's references: an answer is stored
 * whole and only ever deleted (server.ts), never changed in place, and they are the bulk of the rest
 * (one full answer per purchase).
 *
 * The rest is copied by `plainCopy`, not structuredClone: the state is plain JSON data (it is
 * persisted as JSON), and a copy of plain objects and arrays costs about a quarter of
 * structuredClone's, which serializes and deserializes (every mutating request pays it).
 */
import type { RecordEntry, SandboxState, ZoneEntry } from "./state";

/** Takes a checkpoint; calling the result gives the state as it was then (for a refused change). */
export function checkpoint(state: SandboxState): () => SandboxState {
  const lists = new Map<string, RecordEntry[]>();
  const zones: Record<string, ZoneEntry> = {};
  for (const [name, z] of Object.entries(state.zones)) {
    lists.set(name, z.records.slice());
    zones[name] = { ...z, records: [] };
  }
  const idempotency = { ...state.idempotency };
  const rest = plainCopy({ ...state, zones, idempotency: {} });
  rest.idempotency = idempotency;
  return () => {
    for (const [name, z] of Object.entries(rest.zones)) z.records = lists.get(name) ?? [];
    return rest;
  };
}

/** A deep copy of plain data: objects and arrays copied, everything else (strings, numbers, null, ...) kept. */
function plainCopy<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(plainCopy) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = plainCopy(v);
  return out as T;
}

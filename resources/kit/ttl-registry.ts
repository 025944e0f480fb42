/** Shared TTL (see README, "Shared TTL"): records of one name and type in a zone share one TTL. */

/** Where a record stands: its (zone, name) and its type. */
interface Place {
  name: string;
  type: string;
}

/**
 * (zone, name) → type → resource URN → TTL, for the records checked in this host process. Kept by
 * name, so what one check asks costs the same whatever the number of records checked before it
 * (a scan of every group made a run of N records cost N², 10,000 records' preview seconds of CPU).
 */
export class TtlRegistry {
  private readonly names = new Map<string, Map<string, Map<string, number>>>();
  /** URN → where it was registered, so a re-check leaves its old group without scanning every group. */
  private readonly placeOf = new Map<string, Place>();

  /**
   * Registers a record's TTL for its (zone, name, type) and returns the sibling that already declared
   * another TTL, if any. A URN re-checked moves from its old group (renamed record) to the new one.
   */
  register(urn: string, zone: string, name: string, type: string, ttl: number): { urn: string; ttl: number } | undefined {
    const place = { name: `${zone}\u0000${name}`, type };
    const previous = this.placeOf.get(urn);
    if (previous && (previous.name !== place.name || previous.type !== place.type)) this.leave(urn, previous);
    this.placeOf.set(urn, place);
    let types = this.names.get(place.name);
    if (!types) this.names.set(place.name, (types = new Map()));
    let group = types.get(type);
    if (!group) types.set(type, (group = new Map()));
    group.set(urn, ttl);
    for (const [other, otherTtl] of group) if (other !== urn && otherTtl !== ttl) return { urn: other, ttl: otherTtl };
    return undefined;
  }

  /**
   * The other records of this process at the name `name` of `zone` (any type), by URN, with their
   * type: what a CNAME declared at the name of another record of the program meets.
   */
  atName(urn: string, zone: string, name: string): { urn: string; type: string }[] {
    const found: { urn: string; type: string }[] = [];
    for (const [type, group] of this.names.get(`${zone}\u0000${name}`) ?? []) {
      for (const other of group.keys()) if (other !== urn) found.push({ urn: other, type });
    }
    return found;
  }

  /** Forget a record (deleted). */
  unregister(urn: string | undefined): void {
    if (urn === undefined) return;
    const place = this.placeOf.get(urn);
    if (place) this.leave(urn, place);
    this.placeOf.delete(urn);
  }

  private leave(urn: string, place: Place): void {
    const types = this.names.get(place.name);
    const group = types?.get(place.type);
    if (!types || !group) return;
    group.delete(urn);
    if (group.size === 0) types.delete(place.type);
    if (types.size === 0) this.names.delete(place.name);
  }
}

/** Shared TTL (see README, "Shared TTL"): records of one name and type in a zone share one TTL. */

/** (zone, name, type) → resource URN → TTL, for the records checked in this host process. */
export class TtlRegistry {
  private readonly groups = new Map<string, Map<string, number>>();
  /** URN → its group's key, so a re-check leaves its old group without scanning every group. */
  private readonly groupOf = new Map<string, string>();

  /**
   * Registers a record's TTL for its (zone, name, type) and returns the sibling that already declared
   * another TTL, if any. A URN re-checked moves from its old group (renamed record) to the new one.
   */
  register(urn: string, zone: string, name: string, type: string, ttl: number): { urn: string; ttl: number } | undefined {
    const key = `${zone}\u0000${name}\u0000${type}`;
    const previous = this.groupOf.get(urn);
    if (previous !== undefined && previous !== key) this.groups.get(previous)?.delete(urn);
    this.groupOf.set(urn, key);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Map()));
    group.set(urn, ttl);
    for (const [other, otherTtl] of group) if (other !== urn && otherTtl !== ttl) return { urn: other, ttl: otherTtl };
    return undefined;
  }

  /**
   * The other records of this process at the name `name` of `zone` (any type), by URN, with their
   * type: what a CNAME declared at the name of another record of the program meets.
   */
  atName(urn: string, zone: string, name: string): { urn: string; type: string }[] {
    const prefix = `${zone}\u0000${name}\u0000`;
    const found: { urn: string; type: string }[] = [];
    for (const [key, group] of this.groups) {
      if (!key.startsWith(prefix)) continue;
      const type = key.slice(prefix.length);
      for (const other of group.keys()) if (other !== urn) found.push({ urn: other, type });
    }
    return found;
  }

  /** Forget a record (deleted). */
  unregister(urn: string | undefined): void {
    if (urn === undefined) return;
    const key = this.groupOf.get(urn);
    if (key !== undefined) this.groups.get(key)?.delete(urn);
    this.groupOf.delete(urn);
  }
}

/**
 * Which records of a zone the service manages itself. Spec, DNS hosting: "NS records are managed by
 * the service" (not shown: which ones). We read it as the zone's own NS set at the apex, plus SOA;
 * an NS record below the apex (`NS dev`) is a delegation the user made and is the user's record.
 * The one predicate used by validation, the zone-delete guard, import and the sandbox (callers outside dns/
 * read it through api/vocabulary). `name` may be relative ("@", "", "dev") or absolute, with or without the trailing dot.
 */
export function isServiceManagedRecord(zone: string, r: { type: string; name: string }): boolean {
  const type = r.type.trim().toUpperCase();
  if (type === "SOA") return true;
  if (type !== "NS") return false;
  const name = r.name.trim().toLowerCase().replace(/\.$/, "");
  const apex = zone.trim().toLowerCase().replace(/\.$/, "");
  return name === "@" || name === "" || name === apex;
}

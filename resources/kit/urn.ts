/** A URN's last segment, the resource's name (what messages call another resource by). */
export const resourceName = (urn: string): string => urn.split("::").pop() ?? urn;

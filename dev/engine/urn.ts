// URNs as the real engine builds them (sdk/go/common/resource/urn/urn.go New, resource.CreateURN):
// urn:pulumi:<stack>::<project>::<parent qualified type>$<type>::<name>, the root stack's type left out.

export const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";
const PREFIX = "urn:pulumi:";
const NAME_DELIMITER = "::";
const TYPE_DELIMITER = "$";

/** urn.New: the parent's qualified type (unless it is the root stack) prefixes the type. */
export function newUrn(stack: string, project: string, parentType: string, type: string, name: string): string {
  const typ = parentType !== "" && parentType !== ROOT_STACK_TYPE ? parentType + TYPE_DELIMITER + type : type;
  return PREFIX + stack + NAME_DELIMITER + project + NAME_DELIMITER + typ + NAME_DELIMITER + name;
}

function parts(urn: string): string[] {
  if (!urn.startsWith(PREFIX)) throw new Error(`not a URN: ${JSON.stringify(urn)}`);
  return urn.slice(PREFIX.length).split(NAME_DELIMITER);
}

/** The type with its parents' types: `parentType$childType`. */
export function qualifiedType(urn: string): string {
  return parts(urn)[2] ?? "";
}

/** The resource's own type: the last segment of the qualified type. */
export function urnType(urn: string): string {
  const q = qualifiedType(urn).split(TYPE_DELIMITER);
  return q[q.length - 1] ?? "";
}

/** The name: everything after the third delimiter (a name may itself contain "::"). */
export function urnName(urn: string): string {
  return parts(urn).slice(3).join(NAME_DELIMITER);
}

/** resource.CreateURN: a URN from a name, type and parent URN. */
export function createUrn(name: string, type: string, parent: string, project: string, stack: string): string {
  return newUrn(stack, project, parent ? qualifiedType(parent) : "", type, name);
}

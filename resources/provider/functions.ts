/**
 * The provider's functions (`reseller:index:<name>`): the program's read-only functions, by name.
 * The one list the plugin's Invoke and the schema (dev/provider/schema.ts) are made from. A function whose
 * result is a list answers `{ items: [...] }` (a provider function returns an object).
 */
import type * as functions from "../program/functions";
import type * as lookups from "../program/lookups";

export const FUNCTIONS = {
  getAvailability: "functions",
  checkDomain: "functions",
  getPricing: "functions",
  getTlds: "functions",
  getBalance: "functions",
  getTier: "functions",
  getTemplates: "functions",
  getZone: "lookups",
  getRecords: "lookups",
  getDomain: "lookups",
} as const satisfies Record<string, "functions" | "lookups">;

export type FunctionName = keyof typeof FUNCTIONS;

// Each name is an export of its module: a misspelt or moved one does not compile.
const _exported: { [K in FunctionName]: (typeof FUNCTIONS)[K] extends "functions" ? keyof typeof functions : keyof typeof lookups } = {
  getAvailability: "getAvailability",
  checkDomain: "checkDomain",
  getPricing: "getPricing",
  getTlds: "getTlds",
  getBalance: "getBalance",
  getTier: "getTier",
  getTemplates: "getTemplates",
  getZone: "getZone",
  getRecords: "getRecords",
  getDomain: "getDomain",
};
void _exported;

/** A function by name (loaded at first use), or undefined for a name that is none of them. */
export function functionNamed(name: string): ((args: Record<string, unknown>) => Promise<unknown>) | undefined {
  if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, name)) return undefined;
  const module = FUNCTIONS[name as FunctionName];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = (module === "functions" ? require("../program/functions") : require("../program/lookups")) as Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
  return m[name];
}

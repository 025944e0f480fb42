/**
 * The record table: every entry the t_<type>.ts files export, by type. A new entry in one of the
 * files listed here is in the table with nothing else to edit; a new t_<type>.ts file is listed
 * here (test/dns/record-files.test.ts fails until it is).
 */
import type { RecordTypeEntry } from "./entry";
import * as tA from "./t_a";
import * as tAAAA from "./t_aaaa";
import * as tCAA from "./t_caa";
import * as tHex from "./t_hex";
import * as tLayout from "./t_layout";
import * as tMX from "./t_mx";
import * as tName from "./t_name";
import * as tSRV from "./t_srv";
import * as tSVCB from "./t_svcb";
import * as tTXT from "./t_txt";

/** Whether a module's export is a record type's entry. */
export const isEntry = (v: unknown): v is RecordTypeEntry => typeof v === "object" && v !== null && typeof (v as RecordTypeEntry).type === "string" && typeof (v as RecordTypeEntry).parse === "function";

/** The modules of the table: every t_<type>.ts but t_other.ts (the pass-through for types without an entry). */
const MODULES = [tA, tAAAA, tName, tMX, tTXT, tSRV, tCAA, tHex, tSVCB, tLayout];

/** Every entry the t_<type>.ts files export, by type. */
export const RECORD_TYPES: Readonly<Record<string, RecordTypeEntry>> = Object.fromEntries(MODULES.flatMap((m) => Object.values(m).filter(isEntry)).map((e) => [e.type, e]));

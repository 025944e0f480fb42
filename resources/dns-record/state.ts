/** DnsRecord's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { CanonicalRecord, HeldRecord } from "../../dns";
import type { Common } from "../kinds";

/** The record's canonical fields (priority and extra left out where null) and its zone. */
export type RecordInputs = Common & HeldRecord & { zone: string };

/** A DnsRecord in state: the record in canonical form as the service holds it, its id and full name. */
export type RecordOutputs = RecordInputs & CanonicalRecord & { recordId: string; fqdn: string; adopted: boolean };

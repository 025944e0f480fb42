/** DnsRecord's host-side types: the inputs check makes of the program's arguments, and the outputs state keeps. Types only. */
import type { RecordExtra } from "../../api/shapes";
import type { CanonicalRecord } from "../shared/normalize";
import type { Common } from "../kinds";

export interface RecordInputs extends Common {
  zone: string;
  type: string;
  name: string;
  content: string;
  ttl: number;
  priority?: number | null;
  extra?: RecordExtra | null;
}

/** A DnsRecord in state: the record in canonical form as the service holds it, its id and full name. */
export type RecordOutputs = RecordInputs & CanonicalRecord & { recordId: string; fqdn: string; adopted: boolean };

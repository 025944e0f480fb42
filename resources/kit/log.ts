/**
 * The host's log: where lines go (Pulumi's engine log) and how they are masked on the way. Every
 * line a handler logs passes through `redactingLog`: credentials and contact details by rule
 * (api/redact.ts), then every value the program marked secret.
 */
import { redact } from "../../api/redact";
import type { SecretValues } from "./secret-inputs";

/** Where log lines go (Pulumi's engine log in the host). Lines reach it redacted, always. */
export interface LogSink {
  info(line: string): void;
  warn(line: string): void;
}

export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Waits longer than this are logged, saying what is waited for. */
export const LOG_WAITS_LONGER_THAN_MS = 3000;

/** A log line as it may be shown: credentials and contact details masked. If masking fails, the line is withheld, never shown raw. */
export function redacted(msg: string): string {
  try {
    const out = redact(msg);
    return typeof out === "string" ? out : "(a log line was withheld: it could not be redacted)";
  } catch {
    return "(a log line was withheld: it could not be redacted)";
  }
}

/** Log lines masked twice over: credentials and contact details by rule, and every value the program marked secret. */
export const redactingLog = (sink: LogSink, secrets: SecretValues): Log => ({
  info: (msg) => sink.info(`reseller: ${secrets.mask(redacted(msg))}`),
  warn: (msg) => sink.warn(`reseller: ${secrets.mask(redacted(msg))}`),
});

/**
 * Text for a terminal. Domain names, stages and messages come from the service and from state,
 * which this command does not control: an ESC or a BEL in them would reach the terminal as a control
 * sequence (retitle the window, rewrite what was printed above, hide text), and a bidirectional
 * override would show a name other than the one held. Each such character is printed as its `\uXXXX`
 * escape instead, which also keeps `--json` output valid JSON of the same value.
 */

/** Control characters (C0 but line feed and tab, DEL, C1), and the invisible marks and overrides of bidirectional text. */
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** `text` with every character a terminal would act on, or not show, as its `\uXXXX` escape. */
export const terminalText = (text: string): string => text.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

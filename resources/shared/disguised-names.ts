/**
 * Whether a host name a program typed is what it looks like. Before a name becomes ASCII, IDNA
 * (UTS #46, what `domainToASCII` applies and the registries expect) maps it: it drops invisible
 * characters (a zero-width space, a soft hyphen), folds compatibility forms (a fullwidth "ｅ" is
 * "e") and keeps letters of another script that look Latin (a Cyrillic "е"). Each of these buys or
 * points at a name other than the one a reader of the program sees. A name typed in one script
 * ("bücher.de", "пример.рф") is what it looks like; so is one that differs only in case or a
 * trailing dot.
 *
 * Mixed scripts follow UTS #39's "highly restrictive" level: one script per label, or Latin with
 * Han and the Japanese kana, with Han and Bopomofo, or with Han and Hangul. A label in one script
 * that imitates another ("раураl" all Cyrillic) is not caught: telling it needs the confusables
 * table, which Node does not carry.
 */
import { domainToASCII, domainToUnicode } from "node:url";

/** What is wrong with a typed name, and the forms to show beside it. */
export interface Disguise {
  /** The name as typed, invisible characters written as \u escapes so a message shows them. */
  typed: string;
  /** Its ASCII form: what the service registers, or what the record points at. */
  ascii: string;
  /** Why it is not what it looks like, each a clause ("holds the invisible character U+200B"). */
  reasons: string[];
}

/** Scripts a label may hold, by name; a letter of none of them counts as a script of its own. */
const SCRIPTS = [
  "Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Devanagari", "Bengali", "Gurmukhi",
  "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar",
  "Georgian", "Hangul", "Ethiopic", "Cherokee", "Khmer", "Mongolian", "Hiragana", "Katakana", "Bopomofo", "Han",
].map((name) => ({ name, test: new RegExp(`^\\p{Script=${name}}$`, "u") }));

/** Script sets UTS #39 allows in one label beyond a single script (highly restrictive). */
const ALLOWED_MIXES = [
  ["Latin", "Han", "Hiragana", "Katakana"],
  ["Latin", "Han", "Bopomofo"],
  ["Latin", "Han", "Hangul"],
];

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
/** Characters that belong to every script (digits, the hyphen) or to the one before them (combining marks). */
const SCRIPTLESS = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The name as it may be shown: invisible and control characters as \u escapes. */
export const showName = (name: string): string =>
  [...name].map((ch) => (INVISIBLE.test(ch) || /\p{Cc}/u.test(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch)).join("");

function scriptOf(ch: string): string {
  return SCRIPTS.find((s) => s.test.test(ch))?.name ?? `the script of ${codePoint(ch)}`;
}

/**
 * What a label mixes beyond what UTS #39 allows, or undefined: its scripts, and the letters of all
 * but its most used one with their code points (the look-alikes a reader cannot see).
 */
function mixedScripts(label: string): string | undefined {
  const byScript = new Map<string, string[]>();
  for (const ch of label) if (!SCRIPTLESS.test(ch)) byScript.set(scriptOf(ch), [...(byScript.get(scriptOf(ch)) ?? []), ch]);
  if (byScript.size <= 1) return undefined;
  const scripts = [...byScript.keys()];
  if (ALLOWED_MIXES.some((mix) => scripts.every((s) => mix.includes(s)))) return undefined;
  const [, ...others] = [...byScript].sort((a, b) => b[1].length - a[1].length);
  const letters = others.map(([script, chars]) => `${script} ${[...new Set(chars)].map((ch) => `"${ch}" ${codePoint(ch)}`).join(", ")}`);
  return `mixes ${scripts.join(" and ")} letters (${letters.join("; ")})`;
}

/** Lower case one character at a time (no final-sigma rule: IDNA maps "Σ" to "σ" wherever it is). */
const lower = (s: string): string => [...s].map((ch) => ch.toLowerCase()).join("");

/**
 * Why `typed` (a host name a program gave) is not what it looks like, or undefined. A name that is
 * plain ASCII, or that IDNA refuses (validation names it), is undefined here.
 */
export function disguisedName(typed: string): Disguise | undefined {
  const name = typed.trim().replace(/\.$/, "");
  if (!/[^\x21-\x7e]/.test(name)) return undefined;
  const ascii = domainToASCII(name);
  if (ascii === "") return undefined;
  const reasons: string[] = [];
  const invisible = [...new Set([...name].filter((ch) => INVISIBLE.test(ch)))];
  if (invisible.length) reasons.push(`holds the invisible character${invisible.length > 1 ? "s" : ""} ${invisible.map(codePoint).join(", ")}, which IDNA drops`);
  const seen = domainToUnicode(ascii);
  const visible = lower([...name.normalize("NFC")].filter((ch) => !INVISIBLE.test(ch)).join(""));
  if (seen !== visible) reasons.push(`is mapped by IDNA to "${seen}" (characters of another form folded into the ones shown)`);
  for (const label of seen.split(".")) {
    const mixed = mixedScripts(label);
    if (mixed) reasons.push(`has a label "${label}" that ${mixed}`);
  }
  return reasons.length ? { typed: showName(name), ascii, reasons } : undefined;
}

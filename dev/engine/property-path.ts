// Property paths as the real engine reads ignoreChanges and replaceOnChanges (pulumi/pulumi
// sdk/go/common/resource/properties_path.go: parsePropertyPath, Contains, reset; read at 1b5949891b3c):
// `a.b`, `a[0]`, `a["b.c"]` (quotes escaped with a backslash), `a[*]` and `*` for every element or key.
import type { PropertyMap } from "./host";

export type PathSegment = string | number;
export type PropertyPath = PathSegment[];

/** parsePropertyPath (not strict: a '.' before a '[' is tolerated, as old providers send it). */
export function parsePropertyPath(path: string): PropertyPath {
  const out: PropertyPath = [];
  if (path.startsWith(".")) throw new Error(`property path ${JSON.stringify(path)}: expected property path to start with a name or index`);
  let rest = path;
  while (rest.length > 0) {
    if (rest[0] === ".") {
      rest = rest.slice(1);
      if (rest.length === 0) throw new Error(`property path ${JSON.stringify(path)}: expected property path to end with a name or index`);
    } else if (rest[0] === "[") {
      if (rest[1] === '"') {
        let key = "";
        let i = 2;
        for (;;) {
          if (i >= rest.length) throw new Error(`property path ${JSON.stringify(path)}: missing closing quote in property name`);
          if (rest[i] === '"') {
            i++;
            break;
          }
          if (rest[i] === "\\" && rest[i + 1] === '"') {
            key += '"';
            i += 2;
          } else key += rest[i++];
        }
        if (rest[i] !== "]") throw new Error(`property path ${JSON.stringify(path)}: missing closing bracket in property access`);
        out.push(key);
        rest = rest.slice(i + 1);
      } else {
        const close = rest.indexOf("]");
        if (close < 0) throw new Error(`property path ${JSON.stringify(path)}: missing closing bracket in array index`);
        const segment = rest.slice(1, close);
        if (segment === "*") out.push("*");
        else if (/^[+-]?\d+$/.test(segment)) out.push(Number(segment));
        else throw new Error(`property path ${JSON.stringify(path)}: invalid array index ${JSON.stringify(segment)}`);
        rest = rest.slice(close + 1);
      }
    } else {
      const end = rest.search(/[.[]/);
      const name = end < 0 ? rest : rest.slice(0, end);
      out.push(name);
      rest = end < 0 ? "" : rest.slice(end);
    }
  }
  return out;
}

/** PropertyPath.Contains: `other` lies at or under `p`; a "*" segment of `p` matches any key or index. */
export function pathContains(p: PropertyPath, other: PropertyPath): boolean {
  if (other.length < p.length) return false;
  return p.every((seg, i) => seg === "*" || seg === other[i]);
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * PropertyPath.reset: puts the value at `p` in `old` into `news` at the same place, in place. It does
 * not create intermediate locations nor add or remove array elements; false for such a path.
 */
function reset(p: PropertyPath, old: unknown, news: unknown): boolean {
  if (p.length === 0) return false;
  const [key, ...more] = p;
  if (typeof key === "number") {
    if (key < 0) return false;
    const [o, n] = [Array.isArray(old) ? old : undefined, Array.isArray(news) ? news : undefined];
    if (more.length === 0) {
      if (!o && !n) return true;
      if (!o || !n) return false;
      if (key >= o.length && key >= n.length) return true;
      if (key >= o.length || key >= n.length) return false;
      n[key] = structuredClone(o[key]);
      return true;
    }
    if (!o || !n) return !o && !n;
    if (key >= o.length || key >= n.length) return false;
    return reset(more, o[key], n[key]);
  }
  if (key === "*") {
    if (more.length === 0) {
      if (isObject(news)) {
        if (isObject(old)) {
          for (const k of Object.keys(old)) news[k] = structuredClone(old[k]);
          for (const k of Object.keys(news)) if (!(k in old)) delete news[k];
        }
        return true;
      }
      if (Array.isArray(news)) {
        if (!Array.isArray(old)) return true;
        for (let i = 0; i < old.length && i < news.length; i++) news[i] = structuredClone(old[i]);
        return old.length === news.length;
      }
      return false;
    }
    if (isObject(old) && isObject(news)) return Object.keys(old).every((k) => k in news && reset(more, old[k], news[k]));
    if (Array.isArray(old) && Array.isArray(news)) {
      for (let i = 0; i < old.length && i < news.length; i++) if (!reset(more, old[i], news[i])) return false;
      return old.length === news.length;
    }
    return false;
  }
  if (more.length === 0) {
    if (isObject(old) && key in old) {
      if (!isObject(news)) return false;
      news[key] = structuredClone(old[key]);
    } else if (isObject(news)) delete news[key];
    return true;
  }
  if (!isObject(old) || !isObject(news)) return !isObject(old) && !isObject(news);
  const [hasOld, hasNew] = [key in old, key in news];
  if (hasOld && !hasNew) return false;
  if (!hasOld && !hasNew) return true;
  return reset(more, old[key], news[key]);
}

/**
 * processIgnoreChanges (step_generator.go): each ignored path takes its old input value; a path that
 * cannot be reset (an element added or removed on the way) is returned in `invalid`, an unparsable
 * one is skipped, as there.
 */
export function applyIgnoreChanges(news: PropertyMap, olds: PropertyMap, paths: readonly string[]): { inputs: PropertyMap; invalid: string[] } {
  const inputs: PropertyMap = structuredClone(news);
  const invalid: string[] = [];
  for (const p of paths) {
    let path: PropertyPath;
    try {
      path = parsePropertyPath(p);
    } catch {
      continue;
    }
    if (!reset(path, olds, inputs)) invalid.push(p);
  }
  return { inputs, invalid };
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, val: unknown) => (isObject(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b))) : val));

/**
 * The paths an object diff reports (plugin.NewDetailedDiffFromObjectDiff): added, deleted and changed
 * keys, objects and arrays walked element by element.
 */
export function diffPaths(olds: unknown, news: unknown, at: PropertyPath = []): PropertyPath[] {
  if (isObject(olds) && isObject(news)) {
    const out: PropertyPath[] = [];
    for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) {
      if (!(k in news) || !(k in olds)) out.push([...at, k]);
      else out.push(...diffPaths(olds[k], news[k], [...at, k]));
    }
    return out;
  }
  if (Array.isArray(olds) && Array.isArray(news)) {
    const out: PropertyPath[] = [];
    for (let i = 0; i < Math.max(olds.length, news.length); i++) {
      if (i >= olds.length || i >= news.length) out.push([...at, i]);
      else out.push(...diffPaths(olds[i], news[i], [...at, i]));
    }
    return out;
  }
  return canonical(olds) === canonical(news) ? [] : [at];
}

/** PropertyPath.String: `a.b[0]["c.d"]`. */
export function formatPath(p: PropertyPath): string {
  return p
    .map((seg, i) =>
      typeof seg === "number" ? `[${seg}]` : /^[a-zA-Z_$][a-zA-Z0-9_$]*$/.test(seg) ? (i === 0 ? seg : `.${seg}`) : `[${JSON.stringify(seg)}]`,
    )
    .join("");
}

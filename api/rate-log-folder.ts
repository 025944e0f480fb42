/**
 * Where the shared rate-limit logs live: a folder of the user's cache, the user's alone. Any
 * process that can write there can hold this user's requests back (a planted log), so the folder is
 * created 0700 and refused when it is a link, someone else's, or open to others.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The folder under the cache folder; the logs are named by a hash of each credential. */
export const LOG_FOLDER_NAME = path.join("reseller-pulumi", "rate-limit");

/**
 * The platform's cache folder: XDG_CACHE_HOME (when absolute, as the XDG spec asks) or ~/.cache on
 * Linux and other Unix systems, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === "win32") return env.LOCALAPPDATA || path.join(home, "AppData", "Local");
  if (platform === "darwin") return path.join(home, "Library", "Caches");
  const xdg = env.XDG_CACHE_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, ".cache");
}

/** The default folder of the rate-limit logs (the client's `rateLimitLogDir`, `reseller:rateLimitDir`). */
export const defaultLogDir = (env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, home?: string): string =>
  path.join(userCacheDir(env, platform, home), LOG_FOLDER_NAME);

/** Why a file or folder is not this user's alone (owner, mode), or undefined. Windows has neither: its ACLs are the profile's. */
export function ownedPrivately(st: fs.Stats): string | undefined {
  if (process.platform === "win32" || typeof process.getuid !== "function") return undefined;
  const uid = process.getuid();
  if (st.uid !== uid) return `belongs to user ${st.uid}, not to this user (${uid})`;
  const mode = st.mode & 0o777;
  if (mode & 0o077) return `is open to other users (mode ${mode.toString(8).padStart(4, "0")}; it must be ${st.isDirectory() ? "0700" : "0600"})`;
  return undefined;
}

/**
 * Creates the folder (0700, parents too) when it is missing, then checks it: a link, not a folder,
 * someone else's or open to others is refused. Returns why, or undefined when it may hold the logs.
 */
export function prepareLogFolder(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return `cannot be created (${(e as NodeJS.ErrnoException).code ?? e})`;
  }
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return `cannot be read (${(e as NodeJS.ErrnoException).code ?? e})`;
  }
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (!st.isDirectory()) return "is not a folder";
  return ownedPrivately(st);
}

/**
 * How long a file of the folder may stay unwritten before it is removed. A log counts for one window
 * (a minute) only, so an older one holds nothing; a week keeps a log set aside as corrupt there to
 * be looked at. Without it, the logs of every credential ever used piled up (223 were found).
 */
export const LOG_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** The names this package writes there: a log, a log set aside, its lock, a rewrite's temporary file, a lock being made or removed. */
const OUR_FILE = /^rate-[0-9a-f]{32}\.log(?:\.corrupt-\d+|\.lock|\.\d+\.tmp|\.lock\.\d+\.(?:tmp|stale))?$/;

/**
 * Removes the files of ours in `dir` not written for `maxAgeMs` (by their own date; a link is
 * removed, never followed). Anything else in the folder is left. Returns how many were removed.
 */
export function removeOldLogs(dir: string, nowMs: number = Date.now(), maxAgeMs: number = LOG_MAX_AGE_MS): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!OUR_FILE.test(name)) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      if (st.isDirectory() || nowMs - st.mtimeMs <= maxAgeMs) continue;
      fs.unlinkSync(file);
      removed++;
    } catch {
      // Removed meanwhile by another process, or not ours to remove: left as it is.
    }
  }
  return removed;
}

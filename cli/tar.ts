/**
 * A gzipped tar (POSIX ustar, with a pax header for a path longer than ustar's 100 bytes) of
 * regular files, as Go's archive/tar reads it (`pulumi plugin install --file`). Entries are written
 * in the order given, with owner 0 and time 0, so the same files make the same archive.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";

export interface TarEntry {
  /** The path inside the archive, with `/`. */
  path: string;
  /** File permission bits (0o644, 0o755). */
  mode: number;
  /** The content, read when the entry is written. */
  content: () => Buffer;
}

const BLOCK = 512;

function header(name: string, size: number, mode: number, type: "0" | "x"): Buffer {
  const h = Buffer.alloc(BLOCK);
  const octal = (value: number, offset: number, width: number) => h.write(value.toString(8).padStart(width - 1, "0") + "\0", offset, width, "ascii");
  h.write(name, 0, 100, "utf8");
  octal(mode & 0o7777, 100, 8);
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(0, 136, 12); // mtime
  h.write("        ", 148, 8, "ascii"); // the checksum counts its own field as spaces
  h.write(type, 156, 1, "ascii");
  h.write("ustar\0" + "00", 257, 8, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return h;
}

/** A pax record `<length> path=<value>\n`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return Buffer.from(`${length}${body}`, "utf8");
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

function* blocks(entries: TarEntry[]): Generator<Buffer> {
  for (const entry of entries) {
    if (Buffer.byteLength(entry.path) > 100) {
      const pax = paxRecord("path", entry.path);
      yield header(`PaxHeader/${entry.path.slice(-80)}`, pax.length, 0o644, "x");
      yield pax;
      yield padding(pax.length);
    }
    const content = entry.content();
    yield header(Buffer.from(entry.path).subarray(0, 100).toString("utf8").replace(/\uFFFD$/, ""), content.length, entry.mode, "0");
    yield content;
    yield padding(content.length);
  }
  yield Buffer.alloc(2 * BLOCK); // the end of the archive
}

/** Writes `entries` to `file` as a .tar.gz. */
export async function writeTarGz(file: string, entries: TarEntry[]): Promise<void> {
  await pipeline(Readable.from(blocks(entries)), createGzip({ level: 9 }), createWriteStream(file));
}

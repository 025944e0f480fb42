/**
 * The property bags of the engine's requests read straight from the protocol's bytes into plain
 * values, as `google.protobuf.Struct`'s `toJavaScript()` gives them. google-protobuf builds a
 * message object per value first: for a DnsZoneRecords of 10,000 records that was most of the
 * plugin's time in a preview (a Check's `news` alone, 40,000 values, took 0.2 to 0.4 s to read).
 * The other fields of a request are read by the protocol's own classes, as before.
 */

/** A request's Struct fields by number, and the getter each answers (e.g. CheckRequest: 2 `getOlds`, 3 `getNews`). */
export type StructFields = Readonly<Record<number, string>>;

type Plain = null | number | string | boolean | Plain[] | { [key: string]: Plain };

class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new Error("protocol message ends inside a number");
      // Beyond 2^53 a number loses precision; what is read here is lengths, tags, enums and bools.
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
      if (shift > 63) throw new Error("protocol message holds a number longer than 10 bytes");
    }
  }

  /** The end of a length-delimited field whose length comes next. */
  end(limit: number): number {
    const n = this.varint();
    const end = this.pos + n;
    if (end > limit) throw new Error("protocol message ends inside a field");
    return end;
  }

  skip(wireType: number, limit: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.pos = this.end(limit);
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`protocol message holds wire type ${wireType}, which a Struct never does`);
    if (this.pos > limit) throw new Error("protocol message ends inside a field");
  }

  /** google.protobuf.Struct: `map<string, Value> fields = 1`. */
  struct(end: number): { [key: string]: Plain } {
    const out: { [key: string]: Plain } = {};
    while (this.pos < end) {
      const tag = this.varint();
      if (tag !== 10) {
        this.skip(tag & 7, end);
        continue;
      }
      const entryEnd = this.end(end);
      let key = "";
      let value: Plain | undefined;
      while (this.pos < entryEnd) {
        const t = this.varint();
        if (t === 10) {
          const e = this.end(entryEnd);
          key = this.buf.toString("utf8", this.pos, e);
          this.pos = e;
        } else if (t === 18) value = this.value(this.end(entryEnd));
        else this.skip(t & 7, entryEnd);
      }
      if (value === undefined) throw new Error("Unexpected struct type."); // as Struct.toJavaScript() says of a value with no kind
      out[key] = value;
    }
    return out;
  }

  /** google.protobuf.Value: null, number, string, bool, struct or list; the last one given wins, as protobuf reads a oneof. */
  value(end: number): Plain {
    let v: Plain | undefined;
    while (this.pos < end) {
      const tag = this.varint();
      switch (tag) {
        case 8:
          this.varint();
          v = null;
          break;
        case 17:
          if (this.pos + 8 > end) throw new Error("protocol message ends inside a number");
          v = this.buf.readDoubleLE(this.pos);
          this.pos += 8;
          break;
        case 26: {
          const e = this.end(end);
          v = this.buf.toString("utf8", this.pos, e);
          this.pos = e;
          break;
        }
        case 32:
          v = this.varint() !== 0;
          break;
        case 42:
          v = this.struct(this.end(end));
          break;
        case 50:
          v = this.list(this.end(end));
          break;
        default:
          this.skip(tag & 7, end);
      }
    }
    if (v === undefined) throw new Error("Unexpected struct type.");
    return v;
  }

  /** google.protobuf.ListValue: `repeated Value values = 1`. */
  list(end: number): Plain[] {
    const out: Plain[] = [];
    while (this.pos < end) {
      const tag = this.varint();
      if (tag === 10) out.push(this.value(this.end(end)));
      else this.skip(tag & 7, end);
    }
    return out;
  }
}

/** A Struct's bytes as the plain object `Struct.toJavaScript()` gives. */
export function structToJavaScript(bytes: Uint8Array): { [key: string]: Plain } {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Reader(buf, 0).struct(buf.length);
}

/**
 * A request deserializer (grpc-js `requestDeserialize`) that reads the `fields` named Structs itself
 * and the rest of the message by `deserialize` (the protocol class's): each of those getters then
 * answers an object whose `toJavaScript()` gives the plain value, as a Struct's does. A field absent
 * from the message stays absent (its getter answers undefined).
 */
export function withPlainStructs<T extends object>(deserialize: (bytes: Buffer) => T, fields: StructFields): (bytes: Buffer) => T {
  return (bytes) => {
    const r = new Reader(bytes, 0);
    const rest: Buffer[] = [];
    const plain = new Map<string, { [key: string]: Plain }>();
    while (r.pos < bytes.length) {
      const start = r.pos;
      const tag = r.varint();
      const getter = (tag & 7) === 2 ? fields[Math.floor(tag / 8)] : undefined;
      if (getter !== undefined) {
        const end = r.end(bytes.length);
        // Two occurrences of one message field merge; a Struct's map entries are merged by key.
        plain.set(getter, Object.assign(plain.get(getter) ?? {}, r.struct(end)));
        continue;
      }
      r.skip(tag & 7, bytes.length);
      rest.push(bytes.subarray(start, r.pos));
    }
    const msg = deserialize(rest.length === 1 ? rest[0] : Buffer.concat(rest)) as T & Record<string, unknown>;
    for (const [getter, value] of plain) Object.defineProperty(msg, getter, { value: () => ({ toJavaScript: () => value }), configurable: true });
    return msg;
  };
}

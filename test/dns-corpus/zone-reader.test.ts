/**
 * The zone-file reader and import rules (provider/records/zonefile.ts) on small zones written for
 * each rule: what BIND loads is loaded, identical records are one, names in data are absolute under
 * the origin in force, strings keep their bytes, DS only at a delegation; what cannot be loaded is
 * refused by line and reason.
 */
import { RECORD_TYPES } from "../../dns";
import { ZoneFileError, readZoneFile, toRecords } from "../../dns/zonefile";

const Z = "example.com";
const HEX = "ab".repeat(32);
const read = (text: string, files: Record<string, string> = {}) =>
  toRecords(text, Z, { min: 60, max: 86400 }, { include: (name) => ({ path: name, text: files[name] ?? (() => { throw Object.assign(new Error("no such file"), { code: "ENOENT" }); })() }) });
const find = (r: ReturnType<typeof read>, type: string, name: string) => r.records.filter((x) => x.type === type && x.name === name);

describe("identical records are one record, before any other rule (RFC 2181 §5)", () => {
  test("a CNAME written twice is one CNAME, the copy folded and listed with the line it folds into", () => {
    const r = read("$TTL 300\n_acme-challenge CNAME x.acme.example.net.\n_acme-challenge 600 CNAME x.acme.example.net.\n");
    expect(find(r, "CNAME", "_acme-challenge")).toEqual([expect.objectContaining({ content: "x.acme.example.net", line: 2, ttl: 300 })]);
    expect(r.skipped).toEqual([{ line: 3, record: "_acme-challenge CNAME x.acme.example.net", reason: "identical to the record on line 2: one record (RFC 2181 §5), folded into it" }]);
  });

  test("a CNAME beside other data is refused, naming the records it shares its name with; those stay", () => {
    const r = read("$TTL 300\nwww CNAME a.example.net.\nwww A 192.0.2.1\nwww TXT hi\n");
    expect(r.records.map((x) => x.type).sort()).toEqual(["A", "TXT"]);
    expect(r.skipped).toEqual([
      { line: 2, record: "www CNAME a.example.net", reason: "refused: a CNAME cannot share its name with other records (RFC 1034 §3.6.2, RFC 2181 §10.1); www also holds line 3 (A 192.0.2.1), line 4 (TXT hi)" },
    ]);
  });

  test("strings that differ are different records: \"a\" \"b\" is not a duplicate of \"ab\"", () => {
    const r = read('$TTL 300\nt TXT "a" "b"\nt TXT "ab"\nt TXT ab\n');
    expect(find(r, "TXT", "t").map((x) => x.content)).toEqual(['"a" "b"', "ab"]);
    expect(r.skipped.map((s) => s.line)).toEqual([4]);
  });
});

describe("names inside record data are absolute under the origin in force (RFC 1035 §5.1)", () => {
  test("every field the table calls a name, for every type that carries one", () => {
    const r = read(`$TTL 300
$ORIGIN sub.example.com.
n NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp
n RP admin info
n AFSDB 1 afs
n KX 10 kx
n PX 10 map map2
n RT 10 relay
m MX 10 mail
_s._tcp SRV 1 2 3 target
c CNAME target
d DNAME target
ns NS ns1
p PTR host
h HTTPS 1 svc alpn=h2
v SVCB 0 alias
`);
    expect(r.skipped).toEqual([]);
    const got = Object.fromEntries(r.records.map((x) => [x.type, [x.name, x.content]]));
    expect(got).toEqual({
      NAPTR: ["n.sub", '100 10 "S" "SIP+D2U" "" _sip._udp.sub.example.com'],
      RP: ["n.sub", "admin.sub.example.com info.sub.example.com"],
      AFSDB: ["n.sub", "1 afs.sub.example.com"],
      KX: ["n.sub", "10 kx.sub.example.com"],
      PX: ["n.sub", "10 map.sub.example.com map2.sub.example.com"],
      RT: ["n.sub", "10 relay.sub.example.com"],
      MX: ["m.sub", "mail.sub.example.com"],
      SRV: ["_s._tcp.sub", "target.sub.example.com"],
      CNAME: ["c.sub", "target.sub.example.com"],
      DNAME: ["d.sub", "target.sub.example.com"],
      NS: ["ns.sub", "ns1.sub.example.com"],
      PTR: ["p.sub", "host.sub.example.com"],
      HTTPS: ["h.sub", "1 svc.sub.example.com alpn=h2"],
      SVCB: ["v.sub", "0 alias.sub.example.com"],
    });
  });

  test("the table says which fields are names, type by type", () => {
    const names = Object.fromEntries(Object.values(RECORD_TYPES).map((e) => [e.type, e.fields.flatMap((k, i) => (k === "name" ? [i] : []))]));
    expect(names).toMatchObject({ MX: [1], SRV: [3], CNAME: [0], DNAME: [0], NS: [0], PTR: [0], NAPTR: [5], RP: [0, 1], AFSDB: [1], KX: [1], PX: [1, 2], SVCB: [1], HTTPS: [1], TXT: [], A: [] });
  });
});

test("an owner that ends in the zone's name twice is listed, not carried as another name", () => {
  const r = read("$TTL 300\nns.example.com A 192.0.2.1\n");
  expect(r.records).toEqual([]);
  expect(r.skipped[0].reason).toBe(
    "not carried: the owner ns.example.com.example.com ends in the zone's name twice (a missing trailing dot?); a record name ending in example.com is taken as absolute, so it would become ns.example.com",
  );
});

describe("DS only at a delegation point below the apex (RFC 4035 §2.4)", () => {
  test("at the apex and at a name without NS: refused with the RFC; at a delegation: carried", () => {
    const r = read(`$TTL 300\n@ DS 1 13 2 ${HEX}\nlost DS 1 13 2 ${HEX}\nchild NS ns.child-host.net.\nchild DS 1 13 2 ${HEX}\n`);
    expect(r.records.map((x) => `${x.name} ${x.type}`)).toEqual(["child NS", "child DS"]);
    expect(r.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, expect.stringMatching(/^refused: name: "@" cannot hold a DS record: DS is at the top of the zone.*\(RFC 4035 §2\.4\)$/)],
      [3, expect.stringMatching(/^refused: name: "lost" cannot hold a DS record: lost is not a delegation point \(no NS records at that name\).*\(RFC 4035 §2\.4\)$/)],
    ]);
  });
});

describe("the reader loads what BIND loads", () => {
  test("no $TTL and no SOA TTL: the SOA minimum is the default TTL, with a note", () => {
    const r = read("@ IN SOA ns1 host ( 1 7200 900 1w 1h30m )\nwww A 192.0.2.1\n");
    expect(find(r, "A", "www")[0].ttl).toBe(5400);
    expect(r.notes).toEqual([{ line: 1, record: "example.com SOA ns1 host 1 7200 900 1w 1h30m", reason: "no $TTL and no TTL on the SOA: its minimum, 5400 seconds, is the zone's default TTL, as BIND loads it" }]);
  });

  test("TTL units, class and TTL in either order, the previous owner for a blank owner", () => {
    const e = readZoneFile("a 1h30m IN A 192.0.2.1\n  IN 1w TXT x\nb IN 2D A 192.0.2.2\n\tMX 10 mail\n", Z);
    expect(e.map((x) => [x.owner, x.ttl, x.type])).toEqual([
      ["a.example.com", 5400, "A"],
      ["a.example.com", 604800, "TXT"],
      ["b.example.com", 172800, "A"],
      ["b.example.com", 172800, "MX"],
    ]);
  });

  test("$INCLUDE: the file with its origin argument; the parent's origin and owner are as before", () => {
    const r = read("$TTL 300\n$INCLUDE hosts.inc lab\nafter A 192.0.2.9\n$INCLUDE hosts.inc\n", { "hosts.inc": "box A 192.0.2.1\n CNAME x\n" });
    expect(r.records.map((x) => [x.name, x.type, x.line, x.file ?? null])).toEqual([
      ["box.lab", "A", 1, "hosts.inc"],
      ["after", "A", 3, null],
      ["box", "A", 1, "hosts.inc"],
    ]);
    // A blank owner takes the included file's previous owner; the CNAME then shares box with an A.
    expect(r.skipped.map((s) => [s.file, s.line, s.record])).toEqual([
      ["hosts.inc", 2, "box.lab CNAME x.lab.example.com"],
      ["hosts.inc", 2, "box CNAME x.example.com"],
    ]);
  });

  test("$GENERATE: $, ${offset,width,base}, \\$ and $$; TTL and class in either order", () => {
    const e = readZoneFile("$TTL 300\n$GENERATE 1-3/2 host-$ A 10.0.0.$\n$GENERATE 10-11 r${-9,3,x} IN 1h CNAME t\\$$$\n", Z);
    expect(e.map((x) => [x.owner, x.ttl, x.type, x.rdata.join(" "), x.line])).toEqual([
      ["host-1.example.com", 300, "A", "10.0.0.1", 2],
      ["host-3.example.com", 300, "A", "10.0.0.3", 2],
      ["r001.example.com", 3600, "CNAME", "t$$", 3],
      ["r002.example.com", 3600, "CNAME", "t$$", 3],
    ]);
  });

  test.each([
    ["a A 192.0.2.1\n", 1, "has no TTL, and no $TTL, earlier TTL or SOA before it to take one from"],
    ["$TTL 300\n$INCLUDE missing.inc\n", 2, "has $INCLUDE missing.inc, which cannot be read: ENOENT"],
    ["$TTL 300\n$GENERATE 5-1 h$ A 10.0.0.$\n", 2, "has the $GENERATE range 5-1, which runs backwards or has a step of 0"],
    ["$TTL 300\n$GENERATE 0-70000 h$ A 10.0.0.1\n", 2, "has the $GENERATE range 0-70000: more than 65536 records"],
    ["$TTL 300\n$GENERATE 1-2 h${x} A 10.0.0.1\n", 2, "has the $GENERATE modifier ${x}, which is not {offset[,width[,base d|o|x|X|n|N]]}"],
    ["$TTL 300\n$DATE 1\n", 2, "has the directive $DATE, which BIND does not know ($ORIGIN, $TTL, $INCLUDE, $GENERATE)"],
    ["$TTL 300\na CH TXT x\n", 2, "has class CH; only IN is DNS hosting"],
    ["$TTL 300\na TXT \"open\n", 2, "has an unterminated quoted string"],
  ])("refused by line and reason: %j", (text, line, reason) => {
    let error: unknown;
    try {
      read(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZoneFileError);
    expect(error).toMatchObject({ line, reason });
  });

  test("an error in an included file names the file and its line", () => {
    expect(() => read("$TTL 300\n$INCLUDE bad.inc\n", { "bad.inc": "ok A 192.0.2.1\nbad CH A 192.0.2.1\n" })).toThrow("bad.inc: line 2: has class CH; only IN is DNS hosting");
  });
});

describe("character-strings keep their exact bytes", () => {
  test("spaces inside quotes, several strings, DNS-SD and DKIM, for TXT and for types read by layout", () => {
    const dkim = `"v=DKIM1; k=rsa; " "p=${"A".repeat(250)}" "${"B".repeat(100)}"`;
    const r = read(`$TTL 300\nh HINFO "Intel  486" "Linux  2"\nsd TXT "txtvers=1" "rp=x"\nsp TXT "Intel  486"\nk._domainkey TXT ${dkim}\n`);
    expect(find(r, "HINFO", "h")[0].content).toBe('"Intel  486" "Linux  2"');
    expect(find(r, "TXT", "sd")[0].content).toBe('"txtvers=1" "rp=x"');
    expect(find(r, "TXT", "sp")[0].content).toBe("Intel  486");
    expect(find(r, "TXT", "k._domainkey")[0].content).toBe(dkim);
  });
});

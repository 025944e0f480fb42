/**
 * The native plugin's own reading of the requests' property bags (resources/provider/wire.ts)
 * against the protocol's classes: for every request it reads so, a message made and serialized by
 * the installed SDK's classes reads back to the same plain values `toJavaScript()` gives, its other
 * fields unchanged; a field the message lacks stays absent; broken bytes are refused.
 */
import { createRequire } from "node:module";
import { PLAIN_STRUCTS, serviceDefinition } from "../../../resources/provider/plugin";
import { structToJavaScript } from "../../../resources/provider/wire";

const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any */
const provproto = sdk("./proto/provider_pb");
const structproto = sdk("google-protobuf/google/protobuf/struct_pb");

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "hunter2" };
const bag = (n: number) => ({
  zone: "demo-reseller.com",
  records: Array.from({ length: n }, (_, i) => ({ type: "A", name: `zr-${i}`, content: `198.51.100.${i + 1}`, ttl: 300 + i })),
  packed: { "www A 192.0.2.1": 300, "é ü TXT \"ünïcode ✓\"": 60 },
  flags: [true, false, null],
  numbers: [0, -1, 1.5, 2 ** 40, -(2 ** 53), 1e-300, Number.MAX_VALUE],
  nested: { deeper: { list: [[], {}, [{ a: "" }]] }, secret: SECRET },
  empty: {},
});

const REQUESTS: Record<string, string> = { check: "CheckRequest", diff: "DiffRequest", create: "CreateRequest", update: "UpdateRequest", read: "ReadRequest", delete: "DeleteRequest" };

describe.each(Object.entries(PLAIN_STRUCTS))("%s", (method, fields) => {
  const Request = provproto[REQUESTS[method]];
  const read = serviceDefinition()[method].requestDeserialize;

  it("reads each property bag as the protocol's class does, and every other field as before", () => {
    const msg = new Request();
    msg.setUrn("urn:pulumi:dev::p::reseller:index:DnsZoneRecords::zone");
    if (msg.setId) msg.setId("demo-reseller.com");
    Object.values(fields).forEach((getter, i) => msg[`s${getter.slice(1)}`](structproto.Struct.fromJavaScript({ ...bag(3 + i), which: getter })));
    if (msg.setInputs && !Object.values(fields).includes("getInputs")) msg.setInputs(structproto.Struct.fromJavaScript({ kept: "as a Struct" }));
    const bytes = Buffer.from(msg.serializeBinary());
    const theirs = Request.deserializeBinary(bytes);
    const ours = read(bytes) as any;
    for (const getter of Object.values(fields)) {
      expect(ours[getter]().toJavaScript()).toEqual(theirs[getter]().toJavaScript());
      expect(ours[getter]().toJavaScript().which).toBe(getter);
    }
    expect(ours.getUrn()).toBe(theirs.getUrn());
    if (msg.getId) expect(ours.getId()).toBe("demo-reseller.com");
    // ReadRequest's inputs stay a Struct of the protocol's class (read sends them back as they came).
    if (msg.getInputs && !Object.values(fields).includes("getInputs")) expect(ours.getInputs().serializeBinary()).toEqual(theirs.getInputs().serializeBinary());
  });

  it("a property bag the message lacks stays absent", () => {
    const msg = new Request();
    msg.setUrn("urn:pulumi:dev::p::reseller:index:DnsRecord::r");
    const ours = read(Buffer.from(msg.serializeBinary())) as any;
    for (const getter of Object.values(fields)) expect(ours[getter]()).toBeUndefined();
  });
});

test("a Struct of 10,000 records reads as toJavaScript() gives it; truncated bytes are refused", () => {
  const bytes = Buffer.from(structproto.Struct.fromJavaScript(bag(10_000)).serializeBinary());
  expect(structToJavaScript(bytes)).toEqual(structproto.Struct.deserializeBinary(bytes).toJavaScript());
  expect(() => structToJavaScript(bytes.subarray(0, bytes.length - 3))).toThrow(/ends inside/);
});

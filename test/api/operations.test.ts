/**
 * The operation table's own rules: what the client's retries and the sandbox's checks rely on.
 * Each entry is used by both sides (client: signing, key, safety; sandbox: routing, signature,
 * scope, key), so a wrong entry is caught here before it reaches either.
 */
import { UnsafePathError } from "../../api/errors";
import { fillPath, matchTemplate, OPERATION_LIST, requestSafety, templateParams } from "../../api/operations";

describe("the operation table", () => {
  it("a paid operation is keyed, so a retry never charges twice; keyed ones are POSTs", () => {
    expect(OPERATION_LIST.filter(([, op]) => op.paid && !op.keyed).map(([n]) => n)).toEqual([]);
    expect(OPERATION_LIST.filter(([, op]) => op.keyed && op.method !== "POST").map(([n]) => n)).toEqual([]);
    expect(OPERATION_LIST.filter(([, op]) => op.paid).map(([n]) => n)).toEqual(["register", "transfer", "renew", "enablePrivacy", "enableProtection"]);
  });

  it("an unsigned or read-only operation needs only the read scope, and a paid one the purchase scope", () => {
    const scopeOf = (f: (o: (typeof OPERATION_LIST)[number][1]) => boolean) => new Set(OPERATION_LIST.filter(([, o]) => f(o)).map(([, o]) => o.scope));
    expect(scopeOf((o) => !o.signed)).toEqual(new Set(["read"]));
    expect(scopeOf((o) => o.readOnly && o.method !== "POST")).toEqual(new Set(["read"]));
    expect(scopeOf((o) => o.paid)).toEqual(new Set(["purchase"]));
  });

  it("no two operations share a method and template, and every answer that is read has a schema", () => {
    const seen = OPERATION_LIST.map(([, o]) => `${o.method} ${o.template}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect(OPERATION_LIST.filter(([, o]) => o.method !== "DELETE" && o.response === null).map(([n]) => n)).toEqual([]);
  });

  it("a filled template matches back to its parameters (one path syntax for client and sandbox)", () => {
    for (const [, o] of OPERATION_LIST) {
      const params = Object.fromEntries(templateParams(o.template).map((p) => [p, `v-${p}`]));
      const segments = fillPath(o.template, params).split("/").filter(Boolean);
      expect(matchTemplate(o.template, segments)).toEqual(params);
    }
  });

  it("an empty, \".\" or \"..\" parameter is refused, in every operation and every parameter of it", () => {
    const refused: string[] = [];
    for (const [name, o] of OPERATION_LIST) {
      const params = Object.fromEntries(templateParams(o.template).map((p) => [p, `v-${p}`]));
      for (const p of Object.keys(params))
        for (const v of ["", ".", ".."]) {
          expect(() => fillPath(o.template, { ...params, [p]: v })).toThrow(UnsafePathError);
          refused.push(`${name}.${p}`);
        }
    }
    // Every operation with a parameter was tried.
    expect(new Set(refused.map((r) => r.split(".")[0]))).toEqual(new Set(OPERATION_LIST.filter(([, o]) => templateParams(o.template).length > 0).map(([n]) => n)));
    expect(fillPath("/dns/zones/{domain}/records/{id}", { domain: "example.com", id: "..." })).toBe("/dns/zones/example.com/records/...");
  });

  it("only an unkeyed POST that is not read-only may create twice when resent", () => {
    const creating = OPERATION_LIST.filter(([, o]) => requestSafety(o, o.keyed) === "creating").map(([n]) => n);
    expect(creating).toEqual(["requestEppCode", "createHost", "createZone", "createRecord", "applyTemplate"]);
  });
});

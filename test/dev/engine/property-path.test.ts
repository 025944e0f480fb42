// dev/engine/property-path.ts against the cases of pulumi/pulumi sdk/go/common/resource/properties_path_test.go
// (TestPropertyPath, TestPropertyPathContains; read at 1b5949891b3cefcb9974752b24a5ecef0acc86c8).
import { formatPath, parsePropertyPath, pathContains } from "../../../dev/engine/property-path";

describe("property paths (properties_path_test.go)", () => {
  test.each([
    ["root", ["root"], "root"],
    ["root.nested", ["root", "nested"], "root.nested"],
    ['root["nested"]', ["root", "nested"], "root.nested"],
    ['root["double"]["nest"]', ["root", "double", "nest"], "root.double.nest"],
    ["root.array[0].nested", ["root", "array", 0, "nested"], "root.array[0].nested"],
    ["root.array2[0][1].nested", ["root", "array2", 0, 1, "nested"], "root.array2[0][1].nested"],
    ['root["key with \\"escaped\\" quotes"]', ["root", 'key with "escaped" quotes'], 'root["key with \\"escaped\\" quotes"]'],
    ['root["key with a ."]', ["root", "key with a ."], 'root["key with a ."]'],
    ['["root key with a ."][1]', ["root key with a .", 1], '["root key with a ."][1]'],
    ['root.["key with a ."]', ["root", "key with a ."], 'root["key with a ."]'],
  ])("TestPropertyPath: %s", (text, parsed, printed) => {
    expect(parsePropertyPath(text)).toEqual(parsed);
    expect(formatPath(parsePropertyPath(text))).toBe(printed);
  });

  test.each([
    ['root["*"].field[1]', ["root", "*", "field", 1]],
    ["root[*].field[2]", ["root", "*", "field", 2]],
    ["root[3].*[3]", ["root", 3, "*", 3]],
    ["*.bar", ["*", "bar"]],
  ])("TestPropertyPath Simple: %s", (text, parsed) => expect(parsePropertyPath(text)).toEqual(parsed));

  test.each([".root", "root.", "root[", 'root["x', 'root["x"', "root[x]"])("an invalid path fails with the path named: %s", (text) => {
    expect(() => parsePropertyPath(text)).toThrow(JSON.stringify(text));
  });

  test("TestPropertyPathContains", () => {
    expect(pathContains(["root", "nested"], ["root"])).toBe(false);
    expect(pathContains(["root"], ["root", "nested"])).toBe(true);
    expect(pathContains(["root", 1], ["root"])).toBe(false);
    expect(pathContains(["root"], ["root", 1])).toBe(true);
    expect(pathContains(["root", "double", "nest1"], ["root", "double", "nest2"])).toBe(false);
    expect(pathContains(["root", 1, "double"], ["root", 1, "double"])).toBe(true);
    expect(pathContains([], [])).toBe(true);
    expect(pathContains(["root"], [])).toBe(false);
    expect(pathContains([], ["root"])).toBe(true);
    expect(pathContains(["root", "*", "x"], ["root", 3, "x"])).toBe(true);
  });
});

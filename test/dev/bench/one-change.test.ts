/**
 * The one-change and plugin-start sections' plumbing: sizes and forms from the environment, the
 * YAML programs they write, and plugin-start at one spawn each against a real sandbox, the real
 * plugin (dist/: needs `npm run build`) and the SDK's dynamic host, every figure produced. Their
 * timings are the bench's (npm run bench), never asserted here.
 */
import { oneChangeForms, oneChangeRecords, yamlProgram } from "../../../dev/bench/one-change";
import { pluginStart } from "../../../dev/bench/plugin-start";

jest.setTimeout(120_000);

test("one-change: 1,000 records, 10,000 with BENCH_LARGE=1, any with BENCH_ONE_CHANGE_RECORDS; four forms unless BENCH_ONE_CHANGE_FORMS picks", () => {
  expect(oneChangeRecords({})).toBe(1000);
  expect(oneChangeRecords({ BENCH_LARGE: "1" })).toBe(10_000);
  expect(oneChangeRecords({ BENCH_ONE_CHANGE_RECORDS: "50", BENCH_LARGE: "1" })).toBe(50);
  expect(() => oneChangeRecords({ BENCH_ONE_CHANGE_RECORDS: "ten" })).toThrow(/BENCH_ONE_CHANGE_RECORDS: "ten" is not a record count/);
  expect(oneChangeForms({})).toEqual(["zoneRecords", "loop", "zoneRecordsYaml", "loopYaml"]);
  expect(oneChangeForms({ BENCH_ONE_CHANGE_FORMS: "zoneRecordsYaml" })).toEqual(["zoneRecordsYaml"]);
  expect(() => oneChangeForms({ BENCH_ONE_CHANGE_FORMS: "zoneRecords,zones" })).toThrow(/zones is none of zoneRecords, loop, zoneRecordsYaml, loopYaml/);
});

test("one-change's YAML programs: N records, the changed one with the other address", () => {
  const zone = yamlProgram("zoneRecordsYaml", 3, 1);
  expect(zone).toContain("type: reseller:index:DnsZoneRecords");
  expect(zone.match(/- \{ type: A, name: zr-\d+/g)).toHaveLength(3);
  expect(zone).toContain("name: zr-00001, content: 203.0.113.1,");
  expect(zone).toContain("name: zr-00002, content: 198.51.100.3,");
  const loop = yamlProgram("loopYaml", 2, -1);
  expect(loop.match(/type: reseller:index:DnsRecord\n/g)).toHaveLength(2);
  expect(loop).not.toContain("203.0.113.1");
});

test("plugin-start at one spawn each: both moments of both processes, and their ratios", async () => {
  const metrics = await pluginStart({ runs: 1 }).run(() => undefined);
  for (const moment of ["FirstAnswer", "FirstRequest"])
    for (const measure of ["Wall", "Cpu"])
      for (const side of ["Native", "Dynamic"]) expect(metrics[`pluginStart${moment}${measure}${side}Ms`]).toBeGreaterThan(0);
  expect(Object.keys(metrics).sort()).toHaveLength(13);
});

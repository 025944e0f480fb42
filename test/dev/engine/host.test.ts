import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { isProviderHostError, startProviderHost, UNKNOWN, type ProviderHost } from "../../../dev/engine/host";
import { compareVersions, installedSdkVersion } from "../../../resources/shared/sdk-version";

// The SDK's dynamic provider host passes a read's `inputs` on from 3.216.0 (pulumi/pulumi#13839);
// older hosts, down to the lowest supported 3.139.0, drop them and the engine keeps the old inputs.
const READ_INPUTS_SDK = "3.216.0";
const sdk = installedSdkVersion() ?? "unknown";
const forwardsReadInputs = sdk !== "unknown" && compareVersions(sdk, READ_INPUTS_SDK) >= 0;

// A tiny dynamic provider: one file per object under `inputs.dir`, so the test sees real effects.
// It uses only `require` at call time, as a serialized provider must.
const fileProvider = {
  greeting: "",
  async configure(req: { config: { get(k: string): string | undefined } }) {
    this.greeting = req.config.get("fixture:greeting") ?? "none";
  },
  async check(_olds: any, news: any) {
    const failures = typeof news.name === "string" ? [] : [{ property: "name", reason: "name is required" }];
    if (typeof news.name !== "string" || news.name === "04da6b54-80e4-46f7-96ec-b56ff0331ba9") return { inputs: news, failures };
    return { inputs: { ...news, name: news.name.toLowerCase() }, failures };
  },
  async diff(_id: string, olds: any, news: any) {
    const replaces = olds.name !== news.name ? ["name"] : [];
    const changes = replaces.length > 0 || olds.body !== news.body;
    return { changes, replaces, deleteBeforeReplace: news.dbr === true };
  },
  async create(inputs: any) {
    const fs = require("fs");
    const file = require("path").join(inputs.dir, inputs.name);
    fs.writeFileSync(file, inputs.body);
    if (inputs.body === "fail-after-create") {
      const err: any = new Error("made it but it did not start");
      err.id = inputs.name;
      err.properties = { ...inputs, state: "broken" };
      err.reasons = ["did not start"];
      throw err;
    }
    console.error("created " + inputs.name);
    return { id: inputs.name, outs: { ...inputs, greeting: this.greeting, size: inputs.body.length } };
  },
  async read(id: string, props: any) {
    const fs = require("fs");
    const file = require("path").join(props.dir, id);
    if (!fs.existsSync(file)) return { id: "", props: {} };
    const body = fs.readFileSync(file, "utf8");
    return { id, props: { ...props, body, size: body.length }, inputs: { dir: props.dir, name: id, body } };
  },
  async update(id: string, _olds: any, news: any) {
    require("fs").writeFileSync(require("path").join(news.dir, id), news.body);
    return { outs: { ...news, greeting: this.greeting, size: news.body.length } };
  },
  async delete(id: string, props: any) {
    require("fs").unlinkSync(require("path").join(props.dir, id));
  },
};

describe("provider host over gRPC", () => {
  let host: ProviderHost;
  let dir: string;
  let providerText: string;
  const urn = "urn:pulumi:dev::fixture::pulumi-nodejs:dynamic:Resource::thing";

  beforeAll(async () => {
    providerText = (await pulumi.runtime.serializeFunction(() => fileProvider)).text;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "host-test-"));
    host = await startProviderHost();
    await host.configure({ "fixture:greeting": "hello" });
  });
  afterAll(async () => {
    await host?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const inputs = (extra: Record<string, unknown>) => ({ __provider: providerText, dir, ...extra });

  test("check normalizes inputs and reports failures", async () => {
    const ok = await host.check(urn, {}, inputs({ name: "Thing", body: "a" }));
    expect(ok.failures).toEqual([]);
    expect(ok.inputs.name).toBe("thing");
    expect(ok.inputs.__provider).toBe(providerText);

    const bad = await host.check(urn, {}, inputs({ body: "a" }));
    expect(bad.failures).toEqual([{ property: "name", reason: "name is required" }]);

    const unknown = await host.check(urn, {}, inputs({ name: UNKNOWN, body: "a" }));
    expect(unknown.inputs.name).toBe(UNKNOWN);
  });

  const readInputs = forwardsReadInputs ? "read returns the provider's inputs" : `read's inputs dropped by SDK ${sdk}'s host (forwarded from ${READ_INPUTS_SDK})`;
  test(`create, read, diff, update, delete act on the real object (${readInputs})`, async () => {
    const created = await host.create(urn, inputs({ name: "thing", body: "one" }));
    expect(created.id).toBe("thing");
    expect(created.outputs).toMatchObject({ name: "thing", body: "one", size: 3, greeting: "hello" });
    expect(created.outputs.__provider).toBe(providerText);
    expect(fs.readFileSync(path.join(dir, "thing"), "utf8")).toBe("one");

    const same = await host.diff("thing", urn, created.outputs, inputs({ name: "thing", body: "one" }));
    expect(same).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
    const changed = await host.diff("thing", urn, created.outputs, inputs({ name: "thing", body: "two" }));
    expect(changed).toMatchObject({ changes: true, replaces: [] });
    const replaced = await host.diff("thing", urn, created.outputs, inputs({ name: "other", body: "one", dbr: true }));
    expect(replaced).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: true });

    const updated = await host.update("thing", urn, created.outputs, inputs({ name: "thing", body: "two!" }));
    expect(updated.outputs).toMatchObject({ body: "two!", size: 4 });
    expect(fs.readFileSync(path.join(dir, "thing"), "utf8")).toBe("two!");

    fs.writeFileSync(path.join(dir, "thing"), "drifted");
    const read = await host.read("thing", urn, updated.outputs);
    expect(read.id).toBe("thing");
    expect(read.props).toMatchObject({ body: "drifted", size: 7 });
    expect(read.props?.__provider).toBe(providerText);
    if (forwardsReadInputs) expect(read.inputs).toMatchObject({ name: "thing", body: "drifted", __provider: providerText });
    else expect(read.inputs).toBeUndefined();

    await host.delete("thing", urn, read.props ?? {});
    expect(fs.existsSync(path.join(dir, "thing"))).toBe(false);
    const gone = await host.read("thing", urn, read.props ?? {});
    expect(gone.id).toBe("");

    expect(host.logs()).toContain("created thing");
  });

  test("a create that made something fails with its id and properties", async () => {
    const err = await host.create(urn, inputs({ name: "half", body: "fail-after-create" })).catch((e: unknown) => e);
    expect(isProviderHostError(err)).toBe(true);
    if (!isProviderHostError(err)) return;
    expect(err.message).toContain("made it but it did not start");
    expect(err.method).toBe("Create");
    expect(err.id).toBe("half");
    expect(err.properties).toMatchObject({ name: "half", state: "broken" });
    expect(err.reasons).toEqual(["did not start"]);
  });

  test("a plain provider error carries its message and no id", async () => {
    const err = await host
      .delete("missing", urn, inputs({ name: "missing" }))
      .catch((e: unknown) => e);
    expect(isProviderHostError(err)).toBe(true);
    if (!isProviderHostError(err)) return;
    expect(err.message).toContain("ENOENT");
    expect(err.id).toBeUndefined();
  });

  test("close keeps the lines the host wrote as it exited", async () => {
    // A provider that, told to stop, writes more than a pipe holds and a last line, then exits:
    // the host's logs must have them all once close() resolves. (close() waits for the child's
    // 'close', which Node emits after its stdio is drained. On this machine 'exit' also passes this
    // test: the parent reads faster than the child exits, so the test guards close() waiting for the
    // output, not the choice of event. The provider writes with process.stderr.write and exits in its
    // callback: console.error then process.exit lost lines inside the child under CI's load.)
    const lastWords = {
      async create(inputs: any) {
        process.on("SIGTERM", () => {
          // One write, and exit only once it is handed to the pipe: what is lost after that is the
          // reader's doing (a pipe holds 64 KiB; this is about 220 KiB).
          let text = "";
          for (let i = 0; i < 2000; i++) text += "draining " + i + " " + "x".repeat(100) + "\n";
          process.stderr.write(text + "last line\n", () => process.exit(0));
        });
        return { id: inputs.name, outs: inputs };
      },
    };
    const text = (await pulumi.runtime.serializeFunction(() => lastWords)).text;
    const h = await startProviderHost();
    await h.create(urn, { __provider: text, name: "bye" });
    await h.close();
    const logs = h.logs();
    expect(logs.filter((l) => l.startsWith("draining "))).toHaveLength(2000);
    expect(logs[logs.length - 1]).toBe("last line");
  });

  // The last test: it ends the file's host (close in afterAll then has nothing left to stop).
  test("kill stops the process as a crash would", async () => {
    const h = host;
    expect(h.pid).toBeGreaterThan(0);
    expect(() => process.kill(h.pid, 0)).not.toThrow();
    await h.kill();
    expect(() => process.kill(h.pid, 0)).toThrow();
    const err = await h.configure({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
  });
});

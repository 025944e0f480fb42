/**
 * Domain's resource options, as the SDK puts them on the wire: read from the RegisterResourceRequest
 * the SDK sends to a (mock) monitor, the same request `pulumi up` sends to the real engine and the
 * program's process sends to dev/engine/'s monitor.
 */
import * as pulumi from "@pulumi/pulumi";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";

// retainOnDelete has field presence (unset is not false) in the SDK's protos from 3.158.0; before
// that, down to the lowest supported 3.139.0, a resource that sets none sends false.
const retainPresence = typeof (resproto.RegisterResourceRequest.prototype as unknown as RegisterRequest).hasRetainondelete === "function";

interface Registration {
  name: string;
  /** undefined when the request leaves the field unset (engine default: delete is called). */
  retainOnDelete: boolean | undefined;
  additionalSecretOutputs: string[];
}

const registrations: Registration[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) }, "proj", "dev", false);
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource(req: RegisterRequest, cb: unknown): unknown };
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, cb) => {
    registrations.push({
      name: req.getName(),
      retainOnDelete: !req.hasRetainondelete || req.hasRetainondelete() ? req.getRetainondelete() : undefined,
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    });
    return original(req, cb);
  };
});

interface RegisterRequest {
  getName(): string;
  /** Absent before SDK 3.158.0. */
  hasRetainondelete?(): boolean;
  getRetainondelete(): boolean | undefined;
  getAdditionalsecretoutputsList(): string[];
}

async function register(name: string, make: (name: string) => pulumi.Resource): Promise<Registration> {
  const r = make(name);
  await new Promise<void>((resolve) => r.urn.apply(() => resolve()));
  const found = registrations.filter((x) => x.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

const contacts = { registrant: { name: "P", email: "p@example.net", phone: "+441234567890", addressLine1: "1", city: "c", country: "GB" } };

test("a Domain is retained on delete by default; the registration request says so", async () => {
  const { Domain } = (require("../../resources") as typeof import("../../resources"));
  const reg = await register("kept", (n) => new Domain(n, { domain: "kept.com", contacts }));
  expect(reg.retainOnDelete).toBe(true);
  expect(reg.additionalSecretOutputs).toEqual(expect.arrayContaining(["contacts", "authCode"]));
});

test("an explicit retainOnDelete false wins; other options keep the default and the secret outputs", async () => {
  const { Domain } = (require("../../resources") as typeof import("../../resources"));
  const off = await register("released", (n) => new Domain(n, { domain: "released.com", contacts }, { retainOnDelete: false }));
  expect(off.retainOnDelete).toBe(false);
  const other = await register("other-opts", (n) => new Domain(n, { domain: "other-opts.com", contacts }, { protect: false, additionalSecretOutputs: ["invoice"] }));
  expect(other.retainOnDelete).toBe(true);
  expect(other.additionalSecretOutputs).toEqual(expect.arrayContaining(["invoice", "contacts", "authCode"]));
});

const unset = retainPresence ? "leaves the field unset" : "sends false (this SDK's protos have no presence for the field)";
test(`control: a resource that sets no retainOnDelete ${unset}`, async () => {
  // Proves the capture tells a resource's own default from no option, so the true above comes from Domain.
  const { DnsZone } = (require("../../resources") as typeof import("../../resources"));
  const zone = await register("zone", (n) => new DnsZone(n, { domain: "kept.com" }));
  expect(zone.retainOnDelete).toBe(retainPresence ? undefined : false);
});

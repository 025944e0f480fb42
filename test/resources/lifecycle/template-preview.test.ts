/**
 * ZoneTemplate's templateId and variables are checked at preview (Check, through the provider host)
 * against the service's template list: an unknown id or a missing variable fails by name before
 * any apply, with no change made; unknown values (preview) are not judged.
 */
import { UNKNOWN } from "../../../engine/host";
import { Managed, startEnv, type Env } from "./harness";

const ZONE = "demo-reseller.com";
let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => env?.close());

test("an unknown template id and a missing variable fail at check, naming the input and what the service has", async () => {
  const mark = env.mark();
  const t = new Managed(env, "ZoneTemplate", "checked");
  expect((await t.check({ zone: ZONE, templateId: "no-such" })).failures).toEqual([
    { property: "templateId", reason: 'templateId: "no-such" is not a template of the service (known: google-workspace, custom-mail, web; see getTemplates)' },
  ]);
  expect((await t.check({ zone: ZONE, templateId: "custom-mail", variables: { mx: "mail.example.com" } })).failures).toEqual([
    { property: "variables.mx_host", reason: 'variables.mx_host: missing; template custom-mail needs "mx_host"' },
  ]);
  expect((await t.check({ zone: ZONE, templateId: "custom-mail", variables: { mx_host: "mail.example.com" } })).failures).toEqual([]);
  // Values not known yet at preview are not judged.
  expect((await t.check({ zone: ZONE, templateId: UNKNOWN })).failures).toEqual([]);
  expect((await t.check({ zone: ZONE, templateId: "web", variables: UNKNOWN })).failures).toEqual([]);
  expect((await t.check({ zone: ZONE, templateId: "web", variables: { ipv4: UNKNOWN } })).failures).toEqual([]);
  expect(env.mutatingSince(mark)).toEqual([]);
});

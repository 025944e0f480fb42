// Runs a compiled Pulumi program in a user's project with that project's own @pulumi/pulumi. The
// SDK's mock monitor hands every registration (its inputs, `__provider` text included) to the parent
// process over IPC; the parent runs Check and Create on the SDK's dynamic provider host and answers
// with the outputs, so dependents see real outputs. Prints the stack outputs as one JSON line.
// Plain JavaScript: it is copied into the project and loaded by that project's Node, not by jest.
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");

let seq = 0;
const waiting = new Map();
process.on("message", (m) => {
  const w = waiting.get(m.seq);
  waiting.delete(m.seq);
  if (m.error) w.reject(new Error(m.error));
  else w.resolve(m);
});
const ask = (msg) =>
  new Promise((resolve, reject) => {
    const n = ++seq;
    waiting.set(n, { resolve, reject });
    process.send({ ...msg, seq: n });
  });

pulumi.runtime.setMocks(
  {
    newResource: async (args) => {
      const answer = await ask({ kind: "register", type: args.type, name: args.name, inputs: args.inputs });
      return { id: answer.id, state: answer.outputs };
    },
    call: () => {
      throw new Error("no provider functions in this program");
    },
  },
  process.env.DRIVE_PROJECT,
  process.env.DRIVE_STACK,
  false,
);

(async () => {
  const program = require(path.resolve(process.argv[2]));
  const outputs = {};
  for (const [k, v] of Object.entries(program)) outputs[k] = await new Promise((resolve) => pulumi.output(v).apply(resolve));
  process.stdout.write(JSON.stringify(outputs) + "\n");
  process.disconnect();
})().catch((e) => {
  process.stderr.write(`program failed: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});

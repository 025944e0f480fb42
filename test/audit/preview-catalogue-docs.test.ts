/**
 * The CI example's claims are the catalogue's: its list of the mistakes a pull request's preview
 * catches (examples/ci/README.md, between the catalogue markers) is the catalogue's titles, in order,
 * those that only warn at preview marked "(warns)". The catalogue itself runs in
 * preview-predicts-up.test.ts; this only keeps the documentation from drifting from it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { MISTAKES } from "./preview-catalogue";

test("examples/ci/README.md lists the catalogue's mistakes, those that warn marked", () => {
  const text = fs.readFileSync(path.join(__dirname, "../../examples/ci/README.md"), "utf8");
  const list = /<!-- catalogue: begin -->\n([\s\S]*?)<!-- catalogue: end -->/.exec(text)?.[1] ?? "";
  const documented = list.split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2));
  expect(documented).toEqual(MISTAKES.map((m) => (m.preview === "warns" ? `${m.title} (warns)` : m.title)));
});

// How this repository's Go is built: as install.js builds the Pulumi CLI (Pulumi's release build: no
// cgo, -trimpath, the tags osusergo and grpcnotrace, a stripped binary). Every other Go build (npm run
// sdk's generator, the tests' `go run`/`go build` of dev/codegen, examples/go and sdk/go) uses the
// same, so Go's build cache serves the Pulumi packages the CLI's build compiled: a flag or tag that
// differs gives every package another cache key, and a cold first run compiled pkg/v3 twice.
"use strict";

/** `go build` / `go run` flags; `ldflags` are added to `-s -w` (e.g. `-X` version stamps). */
function goBuildFlags(ldflags = []) {
  return ["-trimpath", "-tags", "osusergo,grpcnotrace", "-ldflags", ["-s", "-w", ...ldflags].join(" ")];
}

/** The environment those builds add to the process's own. */
const GO_BUILD_ENV = { CGO_ENABLED: "0" };

module.exports = { goBuildFlags, GO_BUILD_ENV };

/**
 * The provider host's entry point, by package path: every serialized shim (./program/shim.ts) does
 * `require("reseller-pulumi/dist/resources/runtime")` at call time, and states written by earlier
 * versions keep texts that call `runtime.<method>(kind, ...)`. So this file stays at this path with
 * these exports, for as long as such states may exist (test/resources/old-state.test.ts,
 * test/resources/shim.test.ts). The dispatch itself is ./host/dispatch.ts.
 */
export * from "./host/dispatch";

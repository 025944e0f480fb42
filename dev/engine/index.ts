export {
  startProviderHost,
  hostScriptPath,
  packageRoot,
  isProviderHostError,
  ProviderHostError,
  UNKNOWN,
  type ProviderHost,
  type HostOptions,
  type CheckResult,
  type DiffResult,
  type PropertyMap,
} from "./host";
export { Engine, EngineError, inputDiffs, type EngineOptions, type Program, type RunResult } from "./engine";
export type { Step, StepOp, Summary, Operation } from "./display";
export type { ResourceState } from "./state";
export { SIG_KEY, SECRET_SIG } from "./secrets";
export { programArgs, PROGRAM_ARGS_ENV } from "./program-args";

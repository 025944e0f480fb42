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

/** The shape every resource kind's implementation has (Pulumi's dynamic ResourceProvider, typed loosely). */
import type { CheckResult } from "./validate";
import type { DiffResult } from "./diff";

export type Props = Record<string, unknown>;

export interface Handler {
  check(olds: Props, news: Props): CheckResult;
  diff(id: string, olds: Props, news: Props): DiffResult;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id: string; props: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** What read returns for an object that no longer exists: the engine drops it from state. */
export const GONE = { id: "", props: {} as Props };

/**
 * The sandbox's routes: each operation of the table (api/operations.ts: method, template,
 * scope, signature, key) with its handler. HANDLERS is typed by the operation names, so an
 * operation without a handler does not compile. Kept out of server.ts so the sandbox's public
 * declarations do not reach the table's zod schemas.
 */
import { OPERATION_LIST, type Operation, type OperationName } from "../api/operations";
import type { Handler } from "./routing";
import { accountHandlers } from "./routes-account";
import { dnsHandlers } from "./routes-dns";
import { domainHandlers } from "./routes-domains";

/** A handler per operation; each route file fills its part. */
export type Handlers = { [K in OperationName]: Handler };

const HANDLERS: Handlers = { ...accountHandlers, ...domainHandlers, ...dnsHandlers };

export interface Route extends Operation {
  name: OperationName;
  handler: Handler;
}

export const ROUTES: readonly Route[] = OPERATION_LIST.map(([name, op]) => ({ ...op, name, handler: HANDLERS[name] }));

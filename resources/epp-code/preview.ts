/** EppCode's prediction at preview (called by ../kit/preflight.ts): the service gives no EPP code while Domain Protection is on. */
import type { Prediction } from "../kit/preflight";
import { creating } from "../kit/preflight";
import { eppWhileProtected } from "../kit/preview-messages";

export const previewEppCode: Prediction = async (p, _ctx, olds, i) => {
  if (!creating(olds)) return;
  const domain = String(i.domain);
  const d = await p.reads.domain(domain);
  if (d?.protection?.enabled) throw new Error(eppWhileProtected(domain));
};

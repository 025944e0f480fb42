/** A program whose only use of the service is a read-only function (test/audit/preview-predicts-up.test.ts). */
import * as reseller from "../../../resources";

export = () => ({ balance: reseller.getBalanceOutput().balance });

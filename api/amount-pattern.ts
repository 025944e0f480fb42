/**
 * What an amount's text may be: the one pattern both the money type (./money.ts) and the contract's
 * stated prices (./contract.ts, which imports nothing else) follow. No dependencies.
 */

/** Most digits before the point: far above any price, far below where a number stops being exact. */
export const MAX_WHOLE_DIGITS = 12;

/** Digits, then (when the currency has decimals) an optional point and 1 to `decimals` digits. */
export const amountPattern = (decimals: number): RegExp =>
  new RegExp(`^(\\d{1,${MAX_WHOLE_DIGITS}})${decimals ? `(?:\\.(\\d{1,${decimals}}))?` : ""}$`);

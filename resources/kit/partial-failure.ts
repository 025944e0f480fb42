/** An error that keeps a created object in state: the host packs id and properties as a partial failure. */
export class PartialFailure extends Error {
  override readonly name = "PartialFailure";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: object,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** The value Pulumi sends for an input that is not known yet (preview). A module of its own: the program side needs it without check.ts's zod. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The mistake catalogue through the real Pulumi CLI, its second half (test/support/mistakes-through-cli.ts). */
import { MISTAKES } from "../audit/preview-catalogue";
import { mistakesThroughCli } from "../support/mistakes-through-cli";

jest.setTimeout(1_800_000);

const half = Math.ceil(MISTAKES.length / 2);
mistakesThroughCli(MISTAKES.slice(half), half);

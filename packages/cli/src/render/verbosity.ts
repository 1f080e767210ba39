/** How much `inspect` and `check` print (docs/architecture/spec/cli.md#cli-8-3). */
export type Verbosity = "min" | "normal" | "detail";

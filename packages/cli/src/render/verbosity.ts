/** How much `inspect` and `check` print (cli.md §8.3). */
export type Verbosity = "min" | "normal" | "detail";

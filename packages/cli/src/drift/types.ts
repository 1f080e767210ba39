/** Widening: the agent gained reach, or a control weakened (cli.md §7). */
export type ChangeKind = "widening" | "narrowing" | "neutral";

export type Change = {
  kind: ChangeKind;
  /** A capability id, an excluded path, or `"(runtime)"` for runtime-wide changes. */
  id: string;
  field: string;
  message: string;
};

export const CHANGE_KINDS: readonly ChangeKind[] = ["widening", "narrowing", "neutral"];

/** The id runtime-wide changes carry (cli.md §7). */
export const RUNTIME_ID = "(runtime)";

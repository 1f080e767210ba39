/** What the terminal decisions need to know about the environment. */
export type TerminalFacts = { stdoutIsTTY: boolean; stdinIsTTY?: boolean; env: Record<string, string | undefined> };

const isUnsetOrEmpty = (value: string | undefined) => value === undefined || value === "";

/** Plain colour (docs/architecture/spec/cli.md#cli-8-4): stdout is a TTY, `CI` and `NO_COLOR` unset or empty, `TERM` not `dumb`. */
export function colorEnabled(facts: TerminalFacts): boolean {
  return facts.stdoutIsTTY && isUnsetOrEmpty(facts.env.CI) && isUnsetOrEmpty(facts.env.NO_COLOR) && facts.env.TERM !== "dumb";
}

/**
 * The terminal half of the Ink-view test (docs/architecture/spec/cli.md#cli-8-4): stdout a TTY, `CI` unset or empty, `NO_COLOR`
 * not set at all. The caller adds `--plain`/`--json` and whether ink and react import.
 */
export function inkTerminal(facts: TerminalFacts): boolean {
  return facts.stdoutIsTTY && isUnsetOrEmpty(facts.env.CI) && facts.env.NO_COLOR === undefined;
}

/** `init` needs both stdin and stdout to pass the Ink-view test (docs/architecture/spec/cli.md#cli-8-5). */
export function interactiveTerminal(facts: TerminalFacts): boolean {
  return facts.stdinIsTTY === true && inkTerminal(facts);
}

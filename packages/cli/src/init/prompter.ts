/** The questions `init` asks; the Ink prompter answers them interactively, tests answer them directly. */
export type Prompter = {
  select<T>(question: string, options: readonly { label: string; value: T }[]): Promise<T>;
  confirm(question: string, defaultYes: boolean): Promise<boolean>;
  /** Shows lines of information (findings, errors, next steps). */
  say(lines: readonly string[]): void;
  close(): Promise<void>;
};

/** Thrown by a prompter when the user cancels (Ctrl-C). */
export class PromptCancelled extends Error {
  constructor() {
    super("cancelled");
    this.name = "PromptCancelled";
  }
}

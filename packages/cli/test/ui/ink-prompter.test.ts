// The Ink prompter on fake terminal streams. Keys typed the instant a question is drawn answer that question: the
// terminal is already in raw mode, and a key typed as one question replaces another answers only the one on screen.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadUi } from "../../src/ui/bridge.js";
import { createInkPrompter } from "../../src/ui/ink-prompter.js";
import { PromptCancelled, type Prompter } from "../../src/init/prompter.js";

type FakeTerminal = {
  prompter: Prompter;
  /** Types `keys` synchronously with the first frame that shows `text`: as early as a person could. */
  typeWhenShown(text: string, keys: string): void;
  /** Whether the terminal was in raw mode when a frame first showed `text` (undefined while not shown). */
  rawWhenShown(text: string): boolean | undefined;
  /** Every raw-mode switch Ink made, in order. */
  rawSwitches: boolean[];
};

// Ink draws no frame before exit when CI or CONTINUOUS_INTEGRATION is set (it reads them once, when first imported),
// and these tests type as frames appear. `init` itself refuses to run when CI is set.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;

async function fakeTerminal(): Promise<FakeTerminal> {
  const ui = await loadUi();
  if (!ui.available) throw new Error(ui.reason);
  // Ink reads a stdin that says it is a TTY and can switch raw mode; the keys are written by the test.
  const rawSwitches: boolean[] = [];
  let raw = false;
  const setRawMode = (on: boolean) => {
    raw = on;
    rawSwitches.push(on);
  };
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode, ref: () => undefined, unref: () => undefined });
  const triggers: { text: string; keys: string }[] = [];
  const frames: { shown: string; raw: boolean }[] = [];
  let shown = "";
  const stdout = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        shown += chunk.toString();
        frames.push({ shown, raw });
        for (const trigger of [...triggers]) {
          if (!shown.includes(trigger.text)) continue;
          triggers.splice(triggers.indexOf(trigger), 1);
          stdin.write(trigger.keys);
        }
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  return {
    prompter: createInkPrompter(ui.modules, { stdin, stdout }),
    typeWhenShown: (text, keys) => triggers.push({ text, keys }),
    rawWhenShown: (text) => frames.find((frame) => frame.shown.includes(text))?.raw,
    rawSwitches,
  };
}

/** The answer, or "unanswered" when none came: a lost or misrouted key leaves the question waiting forever. */
function answerOf<T>(question: Promise<T>): Promise<T | "unanswered"> {
  return Promise.race([question, new Promise<"unanswered">((resolve) => setTimeout(() => resolve("unanswered"), 5_000))]);
}

describe("Ink prompter (cli.md §8.5)", () => {
  it("a key typed the instant the second confirmation appears answers the second confirmation", async () => {
    const { prompter, typeWhenShown } = await fakeTerminal();
    typeWhenShown("First? (Y/n)", "y");
    typeWhenShown("Second? (y/N)", "y");
    try {
      expect(await answerOf(prompter.confirm("First?", true))).toBe(true);
      expect(await answerOf(prompter.confirm("Second?", false))).toBe(true);
    } finally {
      await prompter.close();
    }
  });

  it("arrow keys move the selection; a confirmation typed the instant it follows a select answers the confirmation", async () => {
    const { prompter, typeWhenShown } = await fakeTerminal();
    typeWhenShown("❯ b", "\r");
    typeWhenShown("Pick one", "\u001B[B");
    typeWhenShown("Sure? (Y/n)", "n");
    try {
      const options = [
        { label: "a", value: "a" },
        { label: "b", value: "b" },
      ];
      expect(await answerOf(prompter.select("Pick one", options))).toBe("b");
      expect(await answerOf(prompter.confirm("Sure?", true))).toBe(false);
    } finally {
      await prompter.close();
    }
  });

  it("the terminal is in raw mode before the first question is drawn and stays so until close", async () => {
    // In cooked mode the line discipline turns an Enter into a newline, which Ink does not read as Enter: a person
    // (or a pty test) pressing Enter the moment the choices appear would be ignored (seen in CI as a stuck select).
    const { prompter, typeWhenShown, rawWhenShown, rawSwitches } = await fakeTerminal();
    typeWhenShown("❯ a", "\r");
    typeWhenShown("Sure? (Y/n)", "y");
    try {
      expect(await answerOf(prompter.select("Pick one", [{ label: "a", value: "a" }]))).toBe("a");
      expect(await answerOf(prompter.confirm("Sure?", true))).toBe(true);
      expect(rawWhenShown("Pick one")).toBe(true);
      expect(rawWhenShown("Sure? (Y/n)")).toBe(true);
      expect(rawSwitches).toEqual([true]);
    } finally {
      await prompter.close();
    }
    expect(rawSwitches).toEqual([true, false]);
  });

  it("Ctrl-C at a question rejects it with PromptCancelled", async () => {
    const { prompter, typeWhenShown } = await fakeTerminal();
    typeWhenShown("Sure? (Y/n)", "\u0003");
    try {
      await expect(answerOf(prompter.confirm("Sure?", true))).rejects.toBeInstanceOf(PromptCancelled);
    } finally {
      await prompter.close();
    }
  });
});

import { PromptCancelled, type Prompter } from "../init/prompter.js";
import type { Element, InkKey, UiModules } from "./ui-modules.js";

type Pending =
  | { kind: "select"; id: number; question: string; labels: string[]; resolve: (index: number) => void }
  | { kind: "confirm"; id: number; question: string; defaultYes: boolean; resolve: (yes: boolean) => void };

/** `selected` is the highlighted option of a pending select. */
type State = { lines: string[]; pending: Pending | undefined; selected: number };

/**
 * A `Prompter` drawn with Ink: one question at a time under the lines said so far. Arrow keys and Enter
 * select; y/n/Enter confirm; Ctrl-C cancels (the pending question rejects with `PromptCancelled`; with none
 * pending, the process is interrupted).
 */
export function createInkPrompter(
  { ink, react }: UiModules,
  streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Prompter {
  const h = react.createElement;
  const { Box, Text } = ink;
  let state: State = { lines: [], pending: undefined, selected: 0 };
  let nextId = 0;
  const listeners = new Set<() => void>();
  const update = (next: State) => {
    state = next;
    for (const listener of listeners) listener();
  };
  let cancel: (() => void) | undefined;

  // One input handler for the prompter's whole life, mounted with the first (empty) frame: the terminal is in raw
  // mode before any question is drawn, so an Enter typed the moment a question appears arrives as a key (in cooked
  // mode the line discipline turns it into a newline Ink does not read as Enter), and raw mode never drops between
  // questions. Keys answer the question pending now; with none pending they are ignored.
  function answer(input: string, key: InkKey): void {
    if (key.ctrl && input === "c") return interrupt();
    const { pending, selected } = state;
    if (pending === undefined) return;
    if (pending.kind === "select") {
      const count = pending.labels.length;
      if (key.upArrow) update({ ...state, selected: (selected + count - 1) % count });
      if (key.downArrow) update({ ...state, selected: (selected + 1) % count });
      if (key.return) pending.resolve(selected);
    } else if (key.return) pending.resolve(pending.defaultYes);
    else if (input.toLowerCase() === "y") pending.resolve(true);
    else if (input.toLowerCase() === "n" || key.escape) pending.resolve(false);
  }

  // Ctrl-C at a question cancels it (the wizard says so and writes nothing more). Between questions, while an app
  // loads, it does what a terminal in cooked mode would: SIGINT, once Ink has given the terminal back, so the
  // loader's guard kills the app's process group and the process ends by the signal.
  function interrupt(): void {
    if (state.pending !== undefined) {
      update({ ...state, pending: undefined });
      cancel?.();
      return;
    }
    instance.unmount();
    void exited.catch(() => undefined).then(() => process.kill(process.pid, "SIGINT"));
  }

  function SelectView({ pending, selected }: { pending: Extract<Pending, { kind: "select" }>; selected: number }): Element {
    return h(
      Box,
      { flexDirection: "column" },
      h(Text, { bold: true }, pending.question),
      ...pending.labels.map((label, i) => h(Text, { key: `option-${i}`, color: i === selected ? "cyan" : undefined }, `${i === selected ? "❯" : " "} ${label}`)),
    );
  }

  function ConfirmView({ pending }: { pending: Extract<Pending, { kind: "confirm" }> }): Element {
    return h(Text, { bold: true }, `${pending.question} ${pending.defaultYes ? "(Y/n)" : "(y/N)"}`);
  }

  function App(): Element {
    ink.useInput(answer);
    const [, setTick] = react.useState(0);
    react.useEffect(() => {
      const listener = () => setTick((tick) => tick + 1);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    }, []);
    const { pending, selected } = state;
    return h(
      Box,
      { flexDirection: "column" },
      ...state.lines.map((line, i) => h(Text, { key: `line-${i}` }, line)),
      pending === undefined
        ? null
        : pending.kind === "select"
          ? h(SelectView, { key: `question-${pending.id}`, pending, selected })
          : h(ConfirmView, { key: `question-${pending.id}`, pending }),
    );
  }

  const instance = ink.render(h(App), { stdin: streams.stdin, stdout: streams.stdout, exitOnCtrlC: false, patchConsole: false });
  const exited = instance.waitUntilExit().finally(() => cancel?.());

  function ask<T>(make: (id: number, resolve: (value: T) => void) => Pending): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      cancel = () => reject(new PromptCancelled());
      const pending = make(nextId++, (value) => {
        if (state.pending !== pending) return;
        cancel = undefined;
        update({ lines: [...state.lines, `${pending.question} ${answerText(pending, value)}`], pending: undefined, selected: 0 });
        resolve(value);
      });
      update({ ...state, pending, selected: 0 });
    });
  }

  return {
    async select(question, options) {
      const index = await ask<number>((id, resolve) => ({ kind: "select", id, question, labels: options.map((o) => o.label), resolve }));
      return (options[index] ?? (options[0] as (typeof options)[number])).value;
    },
    confirm(question, defaultYes) {
      return ask<boolean>((id, resolve) => ({ kind: "confirm", id, question, defaultYes, resolve }));
    },
    say(lines) {
      update({ ...state, lines: [...state.lines, ...lines] });
    },
    async close() {
      // React commits the last update asynchronously; let it reach the terminal before unmounting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      instance.unmount();
      await exited.catch(() => undefined);
    },
  };
}

function answerText(pending: Pending, value: unknown): string {
  if (pending.kind === "confirm") return value === true ? "yes" : "no";
  return `→ ${pending.labels[value as number] ?? ""}`;
}

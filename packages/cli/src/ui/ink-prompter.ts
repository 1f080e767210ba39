import { PromptCancelled, type Prompter } from "../init/prompter.js";
import type { Element, InkKey, UiModules } from "./ui-modules.js";

type Pending =
  | { kind: "select"; id: number; question: string; labels: string[]; resolve: (index: number) => void }
  | { kind: "confirm"; id: number; question: string; defaultYes: boolean; resolve: (yes: boolean) => void };

type State = { lines: string[]; pending: Pending | undefined };

/**
 * A `Prompter` drawn with Ink: one question at a time under the lines said so far. Arrow keys and Enter
 * select; y/n/Enter confirm; Ctrl-C cancels (the pending question rejects with `PromptCancelled`).
 */
export function createInkPrompter(
  { ink, react }: UiModules,
  streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Prompter {
  const h = react.createElement;
  const { Box, Text } = ink;
  let state: State = { lines: [], pending: undefined };
  let nextId = 0;
  const listeners = new Set<() => void>();
  const update = (next: State) => {
    state = next;
    for (const listener of listeners) listener();
  };
  let cancel: (() => void) | undefined;

  function SelectView({ pending }: { pending: Extract<Pending, { kind: "select" }> }): Element {
    const [index, setIndex] = react.useState(0);
    ink.useInput((_input: string, key: InkKey) => {
      if (key.upArrow) setIndex((i) => (i + pending.labels.length - 1) % pending.labels.length);
      if (key.downArrow) setIndex((i) => (i + 1) % pending.labels.length);
      if (key.return) pending.resolve(index);
    });
    return h(
      Box,
      { flexDirection: "column" },
      h(Text, { bold: true }, pending.question),
      ...pending.labels.map((label, i) => h(Text, { key: `option-${i}`, color: i === index ? "cyan" : undefined }, `${i === index ? "❯" : " "} ${label}`)),
    );
  }

  function ConfirmView({ pending }: { pending: Extract<Pending, { kind: "confirm" }> }): Element {
    ink.useInput((input: string, key: InkKey) => {
      if (key.return) pending.resolve(pending.defaultYes);
      else if (input.toLowerCase() === "y") pending.resolve(true);
      else if (input.toLowerCase() === "n" || key.escape) pending.resolve(false);
    });
    return h(Text, { bold: true }, `${pending.question} ${pending.defaultYes ? "(Y/n)" : "(y/N)"}`);
  }

  function App(): Element {
    const [, setTick] = react.useState(0);
    react.useEffect(() => {
      const listener = () => setTick((tick) => tick + 1);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    }, []);
    const { pending } = state;
    return h(
      Box,
      { flexDirection: "column" },
      ...state.lines.map((line, i) => h(Text, { key: `line-${i}` }, line)),
      pending === undefined
        ? null
        : pending.kind === "select"
          ? h(SelectView, { key: `question-${pending.id}`, pending })
          : h(ConfirmView, { key: `question-${pending.id}`, pending }),
    );
  }

  const instance = ink.render(h(App), { stdin: streams.stdin, stdout: streams.stdout, exitOnCtrlC: true, patchConsole: false });
  const exited = instance.waitUntilExit().finally(() => cancel?.());

  function ask<T>(make: (id: number, resolve: (value: T) => void) => Pending): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      cancel = () => reject(new PromptCancelled());
      const pending = make(nextId++, (value) => {
        cancel = undefined;
        update({ lines: [...state.lines, `${pending.question} ${answerText(pending, value)}`], pending: undefined });
        resolve(value);
      });
      update({ ...state, pending });
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

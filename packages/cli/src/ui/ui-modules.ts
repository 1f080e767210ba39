// The slice of ink and react the views use, typed here so neither package is needed to typecheck or to
// run the plain paths. Both are optional dependencies loaded only through the bridge (docs/architecture/spec/cli.md#cli-3).

export type Element = unknown;

export type ReactModule = {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): Element;
  useState<T>(initial: T): [T, (next: T | ((previous: T) => T)) => void];
  useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
};

export type InkKey = { upArrow: boolean; downArrow: boolean; return: boolean; escape: boolean; ctrl: boolean };

export type InkModule = {
  Box: unknown;
  Text: unknown;
  render(
    tree: Element,
    options?: { stdout?: NodeJS.WritableStream; stdin?: NodeJS.ReadableStream; exitOnCtrlC?: boolean; patchConsole?: boolean },
  ): { unmount(): void; waitUntilExit(): Promise<unknown> };
  renderToString(tree: Element, options?: { columns?: number }): string;
  useInput(handler: (input: string, key: InkKey) => void): void;
};

export type UiModules = { ink: InkModule; react: ReactModule };

// The startup warnings (docs/architecture/spec/core.md#core-5) a test file provokes on purpose, captured so a test run's output stays clean.
import { afterAll, afterEach, beforeEach, expect, vi, type MockInstance } from "vitest";

/** What each warning says, as the runtime prints it (the router's is createCapabilityRouter's non-durable journal). */
export const STARTUP_WARNINGS = {
  W1: /approvals are required by .*, but no approvals\.coordinator or approvals\.handler is configured/,
  W2: /policies may require approval for the writes .*, but no approvals\.coordinator or approvals\.handler is configured/,
  W3: /no audit sink is configured, yet models can reach the writes/,
  W4: /are kept by a persistent coordinator without approvals\.seal/,
  router: /createCapabilityRouter: the invocation journal is not durable/,
} as const;

export type StartupWarning = keyof typeof STARTUP_WARNINGS;

/**
 * Call at the top of a file whose tests build runtimes that warn. Every `console.warn` of each test is captured:
 * each must be an `[orpc-agent]` warning, and by the end of the file each kind in `expected` was printed (each
 * fires once per governance object per process, so which test sees it depends on order). Returns the messages so
 * far, for a test that asserts on one.
 */
export function captureStartupWarnings(expected: readonly StartupWarning[]): () => string[] {
  const all: string[] = [];
  let spy: MockInstance<typeof console.warn> | undefined;
  beforeEach(() => {
    spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void all.push(args.map(String).join(" ")));
  });
  afterEach(() => {
    spy?.mockRestore();
    for (const message of all) expect(message, "a console.warn that is not an oRPC Agent warning").toMatch(/^\[orpc-agent\] /);
  });
  afterAll(() => {
    for (const kind of expected) expect(all.some((message) => STARTUP_WARNINGS[kind].test(message)), `startup warning ${kind} was expected`).toBe(true);
  });
  return () => [...all];
}

import { afterEach } from "vitest";

const closers: (() => Promise<void> | void)[] = [];

/** Registers something a test opened (client, server, child process) to be closed after it, last opened first. */
export function closeAfterTest(close: () => Promise<void> | void): void {
  closers.push(close);
}

/** Call once per test file: closes everything the test opened, so no handle outlives it. */
export function closeEverythingAfterEachTest(): void {
  afterEach(async () => {
    const pending = closers.splice(0).reverse();
    for (const close of pending) await close();
  });
}

/**
 * Calls in flight, each bound to the principal that made it, so that a cancellation naming a request id reaches only
 * that principal's calls (SI-3, SI-12). A call is registered as it arrives and claimed once the governed server has
 * resolved who made it; a cancellation arriving in between waits for that answer rather than guessing.
 */
export type InFlightCalls<TCancellation = void> = {
  /** `abort` stops the call, given what the cancellation carried. */
  arrive(requestId: unknown, abort: (cancellation: TCancellation) => void): InFlightCall;
  /** Aborts the calls named by `requestId` that `principal` made; any other id answers nothing, as an unknown one. */
  cancel(principal: string, requestId: unknown, cancellation: TCancellation): Promise<void>;
  /** Aborts every call in flight, whoever made it (the endpoint is closing). */
  abortAll(cancellation: TCancellation): void;
};

export type InFlightCall = {
  /** Who made the call (`principalKey`); `undefined` when its identity was refused, so no cancellation names it. */
  claim(principal: string | undefined): void;
  /** The call was answered, cancelled or dropped. */
  release(): void;
};

type Entry<TCancellation> = { principal: Promise<string | undefined>; abort: (cancellation: TCancellation) => void };

export function createInFlightCalls<TCancellation = void>(): InFlightCalls<TCancellation> {
  // By request id: two principals' calls may carry the same id at once (ids are small integers).
  const byId = new Map<string, Set<Entry<TCancellation>>>();
  // JSON keeps 1 and "1" apart, as JSON-RPC does.
  const keyOf = (requestId: unknown) => JSON.stringify(requestId) ?? "";

  return {
    arrive(requestId, abort) {
      let settle!: (principal: string | undefined) => void;
      const entry: Entry<TCancellation> = { principal: new Promise((resolve) => (settle = resolve)), abort };
      const key = keyOf(requestId);
      let entries = byId.get(key);
      if (entries === undefined) byId.set(key, (entries = new Set()));
      entries.add(entry);
      const owned = entries;
      return {
        claim: (principal) => settle(principal),
        release() {
          settle(undefined);
          owned.delete(entry);
          if (owned.size === 0 && byId.get(key) === owned) byId.delete(key);
        },
      };
    },
    async cancel(principal, requestId, cancellation) {
      const entries = byId.get(keyOf(requestId));
      if (entries === undefined) return;
      await Promise.all(
        [...entries].map(async (entry) => {
          if ((await entry.principal) === principal && entries.has(entry)) entry.abort(cancellation);
        }),
      );
    },
    abortAll(cancellation) {
      const all = [...byId.values()].flatMap((entries) => [...entries]);
      byId.clear();
      for (const entry of all) entry.abort(cancellation);
    },
  };
}

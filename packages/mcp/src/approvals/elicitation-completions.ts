/**
 * `notifications/elicitation/complete` for 2025-era connections that outlive a call (stdio): who waits for which
 * approval's decision. The app reports decisions through `urlElicitation.decisions`; the subscription is held only
 * while someone waits, so an idle server keeps no listener.
 */
export type ElicitationCompletions = {
  /** Calls `notify` once `approvalId` is decided; the returned function stops waiting. */
  watch(approvalId: string, notify: () => Promise<void>): () => void;
};

export type DecisionSubscription = (listener: (approvalId: string) => void) => (() => void) | void;

const MAX_WAITING = 10_000;

export function createElicitationCompletions(subscribe: DecisionSubscription): ElicitationCompletions {
  const waiting = new Map<string, Set<() => Promise<void>>>();
  let unsubscribe: (() => void) | undefined;

  const stopIfIdle = () => {
    if (waiting.size > 0 || unsubscribe === undefined) return;
    const stop = unsubscribe;
    unsubscribe = undefined;
    stop();
  };
  const decided = (approvalId: string) => {
    const notifiers = waiting.get(approvalId);
    if (notifiers === undefined) return;
    waiting.delete(approvalId);
    // A client that went away must not break the app's decision path.
    for (const notify of notifiers) void notify().catch(() => undefined);
    stopIfIdle();
  };

  return {
    watch(approvalId, notify) {
      if (!waiting.has(approvalId) && waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value as string);
      let notifiers = waiting.get(approvalId);
      if (notifiers === undefined) waiting.set(approvalId, (notifiers = new Set()));
      notifiers.add(notify);
      if (unsubscribe === undefined) {
        const stop = subscribe((id) => decided(String(id)));
        unsubscribe = typeof stop === "function" ? stop : () => undefined;
      }
      return () => {
        notifiers.delete(notify);
        if (notifiers.size === 0 && waiting.get(approvalId) === notifiers) waiting.delete(approvalId);
        stopIfIdle();
      };
    },
  };
}

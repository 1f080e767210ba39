import type { ProgressUpdate } from "@orpc-agent/core";

export type ProgressListener = (toolCallId: string, update: ProgressUpdate) => void;

/**
 * Carries one chat's progress reports from its tools to its UI streams, and nowhere else: a relay belongs to one
 * `governChat` build (one request, one actor), so a report never reaches another chat (SI-3).
 */
export type ProgressRelay = {
  report: ProgressListener;
  /** Adds a stream's listener; the returned function removes it. */
  subscribe(listener: ProgressListener): () => void;
};

export function createProgressRelay(): ProgressRelay {
  const listeners = new Set<ProgressListener>();
  return {
    report(toolCallId, update) {
      for (const listener of listeners) {
        // One stream's failure never stops another's report, nor the call that reported.
        try {
          listener(toolCallId, update);
        } catch {
          // ignored
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

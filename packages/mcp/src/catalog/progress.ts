import type { ExecutionOptions, ProgressUpdate } from "@orpc-agent/core";

/**
 * Sends one `notifications/progress` for the request being handled. The serving path adds the request's own token
 * and sends it as a notification related to that request, so it travels with that request alone (SI-3).
 */
export type ProgressNotifier = (update: ProgressUpdate) => Promise<void>;

/** What a call that asked for progress hands the runtime. */
export type CallProgress = Pick<ExecutionOptions, "onProgress" | "onEvent">;

/** The longest `message` a streamed event becomes, in UTF-16 code units, the ellipsis included. */
export const EVENT_MESSAGE_MAX_LENGTH = 512;

/**
 * The longest string progress token that gets progress, in UTF-16 code units. Every notification repeats the token,
 * and the SSE stream queues notifications without waiting for the client to read them, so an unbounded token would
 * multiply into the server's memory once per event (SI-12); real tokens are ids and counters.
 */
export const PROGRESS_TOKEN_MAX_LENGTH = 1_024;

/**
 * A request's `_meta.progressToken` when it carries one MCP allows (a string of at most
 * {@link PROGRESS_TOKEN_MAX_LENGTH}, or an integer); otherwise the client did not ask for progress and gets none.
 */
export function progressTokenOf(meta: unknown): string | number | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const token: unknown = (meta as { progressToken?: unknown }).progressToken;
  if ((typeof token === "string" && token.length <= PROGRESS_TOKEN_MAX_LENGTH) || (typeof token === "number" && Number.isSafeInteger(token))) return token;
  return undefined;
}

/**
 * The runtime callbacks of one `tools/call` whose request carried a progress token, and `close()` for when its result
 * is settled: it waits for the notifications already handed to the transport (so none arrives after the result, when
 * the client no longer listens for its token), and nothing is sent after it. The capability's own reports (already validated and throttled by the runtime)
 * go out as they are; each event of a streaming capability goes out with `progress` = its position (1 for the first)
 * and `message` = its redacted JSON, capped at {@link EVENT_MESSAGE_MAX_LENGTH}. MCP requires `progress` to increase,
 * so an update that would not (a report on another scale than the events) is dropped. A notification that cannot be
 * sent changes nothing: the call goes on, and its result still answers.
 */
export function callProgress(notify: ProgressNotifier): { options: CallProgress; close(): Promise<void> } {
  let open = true;
  let last = Number.NEGATIVE_INFINITY;
  let events = 0;
  const inFlight = new Set<Promise<void>>();
  const send = (update: ProgressUpdate): Promise<void> => {
    if (!open || !(update.progress > last)) return Promise.resolve();
    last = update.progress;
    // A notifier that throws synchronously is caught like one that rejects.
    const sent = new Promise<void>((resolve) => resolve(notify(update))).then(
      () => void inFlight.delete(sent),
      // The request's stream is gone or refused the write: progress is a side channel, never the call's outcome.
      () => void inFlight.delete(sent),
    );
    inFlight.add(sent);
    return sent;
  };
  return {
    options: {
      onProgress: (update) => void send(update),
      // Awaited by the runtime before the next event: the transport paces the stream.
      onEvent: (event) => {
        events += 1;
        const message = eventMessage(event);
        return send(message === undefined ? { progress: events } : { progress: events, message });
      },
    },
    async close() {
      open = false;
      await Promise.all(inFlight);
    },
  };
}

/** The event as short JSON text; `undefined` when it has none (`undefined`, a function, a BigInt, a cycle). */
function eventMessage(event: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(event);
  } catch {
    return undefined;
  }
  if (text === undefined || text.length <= EVENT_MESSAGE_MAX_LENGTH) return text;
  let end = EVENT_MESSAGE_MAX_LENGTH - 1;
  // Never split a surrogate pair.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

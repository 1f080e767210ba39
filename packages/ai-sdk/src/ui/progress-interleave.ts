import type { ProgressUpdate } from "@orpc-agent/core";
import { toolProgressChunk } from "./progress-part.js";
import type { ProgressRelay } from "./progress-relay.js";

/** The readable side's buffer, in chunks: progress is written only while fewer than this many wait for the reader. */
export const PROGRESS_HIGH_WATER_MARK = 16;

type Sink = { enqueue(chunk: unknown): void; readonly desiredSize: number | null };
type Chunk = { type: string; toolCallId?: string; preliminary?: boolean };

/**
 * Places one chat's progress reports into one UI message stream. A call's report is written only between its
 * `tool-input-*` chunk and its output, so it always follows the tool part it belongs to and never outlives it; only
 * calls this stream carried receive reports. Memory is bounded whatever the reader's pace: while the reader lags, each
 * call keeps just its latest report, written once there is room, and dropped when the call's output arrives.
 */
export function interleaveProgress(relay: ProgressRelay) {
  const open = new Set<string>();
  const done = new Set<string>();
  const latest = new Map<string, ProgressUpdate>();
  let sink: Sink | undefined;
  let unsubscribe: (() => void) | undefined;

  const close = () => {
    sink = undefined;
    unsubscribe?.();
    latest.clear();
  };
  const drain = () => {
    if (sink === undefined) return;
    for (const [toolCallId, update] of latest) {
      if (!open.has(toolCallId)) continue;
      if ((sink.desiredSize ?? 0) <= 0) return;
      latest.delete(toolCallId);
      try {
        sink.enqueue(toolProgressChunk(toolCallId, update));
      } catch {
        // The reader cancelled the stream: it takes nothing more, so the relay forgets it.
        return close();
      }
    }
  };

  return {
    /** From the stream's `start`: reports are accepted from now on. */
    start(controller: Sink) {
      sink = controller;
      unsubscribe = relay.subscribe((toolCallId, update) => {
        if (done.has(toolCallId)) return;
        latest.delete(toolCallId);
        latest.set(toolCallId, update);
        drain();
      });
    },
    /** Before a chunk of the governed tools is written: a call's output ends its reports. */
    before(chunk: Chunk) {
      if (typeof chunk.toolCallId !== "string") return;
      const ends = (chunk.type.startsWith("tool-output-") && chunk.preliminary !== true) || chunk.type === "tool-input-error";
      if (!ends) return;
      open.delete(chunk.toolCallId);
      done.add(chunk.toolCallId);
      latest.delete(chunk.toolCallId);
    },
    /** After a chunk was written: a call's input opens it, and any report that waited for room is written. */
    after(chunk: Chunk) {
      if ((chunk.type === "tool-input-start" || chunk.type === "tool-input-available") && typeof chunk.toolCallId === "string" && !done.has(chunk.toolCallId)) {
        open.add(chunk.toolCallId);
      }
      drain();
    },
    /** At the end of the stream: the reports still kept for open calls (one each) are written, then nothing more. */
    finish(controller: Sink) {
      if (sink !== undefined) for (const [toolCallId, update] of latest) if (open.has(toolCallId)) controller.enqueue(toolProgressChunk(toolCallId, update));
      close();
    },
  };
}

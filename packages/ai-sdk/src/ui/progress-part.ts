import type { ProgressUpdate } from "@orpc-agent/core";

/** The `data-*` name of a tool call's progress: chunks are `{ type: "data-tool-progress", id: toolCallId, data, transient: true }`. */
export const TOOL_PROGRESS_PART_TYPE = "data-tool-progress";

/** One progress report of a governed tool call, as the chat UI receives it. */
export type ToolProgressData = {
  /** The SDK's call id: the `toolCallId` of the tool part it belongs to. */
  toolCallId: string;
  progress: number;
  total?: number;
  message?: string;
};

/**
 * A progress report as a UI message chunk. Transient: it reaches `useChat`'s `onData` only and is never stored in
 * the message, so a long job leaves no trail of reports behind; the `id` (the call id) lets a UI that keeps the last
 * one key it by call.
 */
export type ToolProgressChunk = { type: typeof TOOL_PROGRESS_PART_TYPE; id: string; data: ToolProgressData; transient: true };

/** Only the three fields of the report cross, whatever else the object carried. */
export function toolProgressChunk(toolCallId: string, update: ProgressUpdate): ToolProgressChunk {
  const data: ToolProgressData = { toolCallId, progress: update.progress };
  if (update.total !== undefined) data.total = update.total;
  if (update.message !== undefined) data.message = update.message;
  return { type: TOOL_PROGRESS_PART_TYPE, id: toolCallId, data, transient: true };
}

import type { ProgressUpdate } from "../client/types.js";

// What a client reads from a streaming procedure's frames. A frame it cannot read is skipped, never delivered.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** The event an `event` frame carries, as `{ event }`; `undefined` for any other frame. */
export function eventOf(frame: unknown): { event: unknown } | undefined {
  return isObject(frame) && frame.type === "event" && "event" in frame ? { event: frame.event } : undefined;
}

/** The report a `progress` frame carries, rebuilt from its three fields; `undefined` for any other or malformed frame. */
export function progressOf(frame: unknown): ProgressUpdate | undefined {
  if (!isObject(frame) || frame.type !== "progress" || !isFiniteNumber(frame.progress)) return undefined;
  if (frame.total !== undefined && !isFiniteNumber(frame.total)) return undefined;
  if (frame.message !== undefined && typeof frame.message !== "string") return undefined;
  const update: ProgressUpdate = { progress: frame.progress };
  if (frame.total !== undefined) update.total = frame.total;
  if (frame.message !== undefined) update.message = frame.message;
  return update;
}

import type { StreamHooks } from "./types.js";

/** Only the hooks the caller passed, so a call without them reaches the runtime exactly as before. */
export function streamHooks(o: StreamHooks): StreamHooks {
  const hooks: StreamHooks = {};
  if (o.onEvent !== undefined) hooks.onEvent = o.onEvent;
  if (o.onProgress !== undefined) hooks.onProgress = o.onProgress;
  return hooks;
}

import type { SpanHandle } from "./types.js";

/** The span every call gets when no TracingAdapter is configured: costs one shared object. */
export const NOOP_SPAN: SpanHandle = Object.freeze({
  setAttributes() {},
  recordError() {},
  end() {},
});

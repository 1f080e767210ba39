// The bounds every walk over a caller's input keeps, so refusing a hostile one costs time linear in what was read.
// A getter or `toJSON` may mint fresh objects on every read, so an input need not be finite: only a budget ends it.

/** Containers nested deeper than this are refused: far past any tool input, far short of what the stack holds. */
export const MAX_INPUT_DEPTH = 1_000;

/** Values (every element, property value and Map or Set entry) one input may hold, counted as JSON would write them. */
export const MAX_INPUT_VALUES = 1_000_000;

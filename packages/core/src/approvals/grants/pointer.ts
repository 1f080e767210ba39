// JSON Pointer (RFC 6901) over the validated input, for grant conditions and budgets (SI-13). Resolution reads only
// what JSON could carry: own data properties of objects and in-range indices of arrays. Inherited keys (`__proto__`,
// `constructor`, `toString`), getters, a path through a string or number, and `-` resolve to nothing, and nothing
// fails the condition: a grant never covers a call by reading something the caller did not send.

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** The reference tokens of `pointer`, unescaped (`~1` → `/`, then `~0` → `~`); `undefined` when it is not a pointer. */
export function parsePointer(pointer: unknown): string[] | undefined {
  if (typeof pointer !== "string") return undefined;
  if (pointer === "") return [];
  if (pointer[0] !== "/") return undefined;
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // A `~` not followed by 0 or 1 is not a pointer (RFC 6901 §3), refused rather than guessed.
    if (/~(?![01])/.test(token)) return undefined;
    tokens[i] = token.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return tokens;
}

const MISSING: unique symbol = Symbol("missing");

/** What `tokens` reach in `root`, or `undefined` when they reach nothing (never a property it inherited). */
export function resolvePointer(root: unknown, tokens: readonly string[]): { value: unknown } | undefined {
  let current: unknown = root;
  for (const token of tokens) {
    current = step(current, token);
    if (current === MISSING) return undefined;
  }
  return { value: current };
}

function step(container: unknown, token: string): unknown {
  if (typeof container !== "object" || container === null) return MISSING;
  if (Array.isArray(container)) {
    if (!ARRAY_INDEX.test(token)) return MISSING;
    const index = Number(token);
    return index < container.length ? (Object.hasOwn(container, index) ? container[index] : MISSING) : MISSING;
  }
  const descriptor = Object.getOwnPropertyDescriptor(container, token);
  // An accessor is not data the caller sent; reading it could answer differently from what the handler reads.
  if (descriptor === undefined || !("value" in descriptor)) return MISSING;
  return descriptor.value;
}

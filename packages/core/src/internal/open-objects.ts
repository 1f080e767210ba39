const SHALLOW = 16;

/**
 * The containers a depth-first walk is inside, innermost last, for cycle detection. Most inputs are a level or two
 * deep, where scanning a short array beats allocating and hashing a Set (about 0.1 µs per input, issue 28); past
 * `SHALLOW` levels a Set takes over, so an input both deep and wide costs linear time, not containers × depth.
 * A plain record, not a class: a walk keeps it among its own fields, one allocation for both.
 */
export type OpenObjects = { readonly stack: object[]; deep: Set<object> | undefined };

export function isOpen(open: OpenObjects, object: object): boolean {
  return open.deep === undefined ? open.stack.includes(object) : open.deep.has(object);
}

export function enterOpen(open: OpenObjects, object: object): void {
  open.stack.push(object);
  if (open.deep !== undefined) open.deep.add(object);
  else if (open.stack.length > SHALLOW) open.deep = new Set(open.stack);
}

export function leaveOpen(open: OpenObjects): void {
  const object = open.stack.pop()!;
  open.deep?.delete(object);
}

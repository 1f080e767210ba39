const SHALLOW = 16;

/**
 * The containers a depth-first walk is inside, innermost last, for cycle detection. Most inputs are a level or two
 * deep, where scanning a short array beats allocating and hashing a Set (about 0.1 µs per input, issue 28); past
 * `SHALLOW` levels a Set takes over, so an input both deep and wide costs linear time, not containers × depth.
 */
export class OpenObjects {
  private readonly stack: object[] = [];
  private deep: Set<object> | undefined;

  has(object: object): boolean {
    return this.deep === undefined ? this.stack.includes(object) : this.deep.has(object);
  }

  push(object: object): void {
    this.stack.push(object);
    if (this.deep !== undefined) this.deep.add(object);
    else if (this.stack.length > SHALLOW) this.deep = new Set(this.stack);
  }

  pop(): void {
    const object = this.stack.pop()!;
    this.deep?.delete(object);
  }
}

/**
 * The hash form of a JSON value (docs/architecture/spec/cli.md#cli-6-1): object keys sorted recursively by code unit,
 * `undefined`-valued properties dropped, array order kept, no whitespace.
 *
 * @example
 * import { canonicalJson } from "@orpc-agent/cli";
 * canonicalJson({ b: 1, a: [2, 1] }); // '{"a":[2,1],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    // Scalars serialize as JSON does; a bare undefined/function has no JSON form.
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
    return text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isOmitted(item) ? "null" : canonicalJson(item))).join(",")}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => !isOmitted(record[key]))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

// Values JSON itself leaves out of objects (and writes as null inside arrays).
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

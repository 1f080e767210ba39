import type { AgentCapability } from "@orpc-agent/core";

/**
 * The JSON Schema of one capability's `data` (its output), as its tool's envelope carries it under `$defs.data`.
 * Deep-frozen: the envelope takes a copy per listing, since validators write into the schemas they compile.
 */
export type DataSchema = Readonly<Record<string, unknown>>;

/** Where the envelope puts a capability's output schema; every `$ref` inside is rewritten to resolve from there. */
export const DATA_SCHEMA_POINTER = "/$defs/data";

type StandardJsonSchemaProps = { jsonSchema?: { output?: (options: { target: string }) => unknown } };

/**
 * What the tool's outputSchema can say about `data`: the output side of the capability's declared output schema,
 * read through Standard JSON Schema (`~standard.jsonSchema.output`, e.g. Zod 4.2+), when it can be embedded
 * faithfully. `undefined`, and `data` stays open, when the capability declares no output schema; when `redact.output`
 * reshapes the output after it was validated; when the schema library offers no JSON Schema of the output side, or
 * refuses to write one (a transform, a `Date`); or when the schema holds what no envelope can carry unchanged (a
 * `$ref` to another document, `$id`, anchors, a `pattern` the validators' `u` flag refuses).
 *
 * `format` keywords are dropped: validators disagree on formats and some refuse unknown ones, and an outputSchema a
 * client cannot compile fails every call. The value was checked against the full schema by the procedure already.
 */
export function dataSchemaOf(capability: Pick<AgentCapability, "outputSchema" | "meta">): DataSchema | undefined {
  if (capability.outputSchema === undefined || capability.meta.redact?.output !== undefined) return undefined;
  const props = (capability.outputSchema as { "~standard"?: StandardJsonSchemaProps })["~standard"];
  const output = props?.jsonSchema?.output;
  if (typeof output !== "function") return undefined;
  let written: unknown;
  try {
    written = output.call(props!.jsonSchema, { target: "draft-2020-12" });
  } catch {
    return undefined;
  }
  if (!isRecord(written)) return undefined;
  const { $schema: _dialect, ...root } = written;
  try {
    return deepFreeze(embed(root) as DataSchema);
  } catch (refusal) {
    if (refusal instanceof NotEmbeddable) return undefined;
    throw refusal;
  }
}

class NotEmbeddable extends Error {}

// Keywords whose value is a schema, a list of schemas, or a map of names to schemas (JSON Schema 2020-12 and the
// draft-07 spellings a library may still write). Any other keyword's value is data (`const`, `default`, `examples`,
// `enum`, `required`, ...) and is copied as it is.
const SCHEMA = new Set(["additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else", "additionalItems", "contentSchema"]);
const SCHEMA_OR_LIST = new Set(["items"]);
const SCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
// What would resolve differently, or not at all, once the schema sits inside the envelope.
const NOT_EMBEDDABLE = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary"]);

/** A copy of one schema (object or boolean) that resolves from inside the envelope exactly as it did on its own. */
function embed(schema: unknown): unknown {
  if (typeof schema === "boolean") return schema;
  if (!isRecord(schema)) throw new NotEmbeddable();
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (NOT_EMBEDDABLE.has(keyword) || keyword === "$schema") throw new NotEmbeddable();
    if (keyword === "format") continue;
    if (keyword === "$ref") copy.$ref = rebasedRef(value);
    else if (keyword === "pattern") copy.pattern = checkedPattern(value);
    else if (SCHEMA.has(keyword)) copy[keyword] = embed(value);
    else if (SCHEMA_OR_LIST.has(keyword)) copy[keyword] = Array.isArray(value) ? value.map(embed) : embed(value);
    else if (SCHEMA_LIST.has(keyword)) copy[keyword] = listOf(value).map(embed);
    else if (SCHEMA_MAP.has(keyword)) copy[keyword] = mapOf(value, keyword === "patternProperties");
    else if (keyword === "dependencies") copy[keyword] = dependenciesOf(value);
    else copy[keyword] = jsonCopy(value);
  }
  return copy;
}

/** A reference within the schema (`#` or `#/json/pointer`) now points into the envelope's copy of it. */
function rebasedRef(ref: unknown): string {
  if (typeof ref !== "string" || !(ref === "#" || ref.startsWith("#/"))) throw new NotEmbeddable();
  return `#${DATA_SCHEMA_POINTER}${ref.slice(1)}`;
}

function checkedPattern(pattern: unknown): string {
  if (typeof pattern !== "string") throw new NotEmbeddable();
  try {
    // Both SDK validators (Ajv, cfworker) compile patterns with the `u` flag.
    new RegExp(pattern, "u");
  } catch {
    throw new NotEmbeddable();
  }
  return pattern;
}

function listOf(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new NotEmbeddable();
  return value;
}

function mapOf(value: unknown, keysArePatterns: boolean): Record<string, unknown> {
  if (!isRecord(value)) throw new NotEmbeddable();
  const copy: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(value)) {
    copy[keysArePatterns ? checkedPattern(name) : name] = embed(schema);
  }
  return copy;
}

/** draft-07 `dependencies`: per property, a list of names (data) or a schema. */
function dependenciesOf(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new NotEmbeddable();
  return Object.fromEntries(Object.entries(value).map(([name, dependency]) => [name, Array.isArray(dependency) ? jsonCopy(dependency) : embed(dependency)]));
}

/** A keyword's data (`const`, `default`, `enum`, ...) copied, so freezing the schema never freezes the library's own values. */
function jsonCopy(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new NotEmbeddable();
  }
  if (text === undefined) throw new NotEmbeddable();
  return JSON.parse(text) as unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

import type { StandardSchemaV1 } from "@standard-schema/spec";
import { frozenCopy } from "../../internal/deep-freeze.js";
import { toJsonSchema } from "../../schema/to-json-schema.js";
import type { JsonSchemaObject } from "../../schema/types.js";
import { canonicalJson } from "../canonical-json.js";
import type { ApprovalViewCapability, ApprovalViewField, ApprovalViewInput } from "./types.js";

/**
 * The input as approvers may see it (SI-10): what `redact.approvalInput` returns for the stored input, or the stored
 * input when the capability declares no hook. Fails closed: without a registry entry the hook is unknown, so nothing
 * is shown. The result is a frozen JSON copy, so a channel that edits it edits neither the record nor the hook's value.
 */
export function redactedApprovalInput(input: unknown, capability: ApprovalViewCapability | undefined): ApprovalViewInput {
  if (capability === undefined || capability === null) return Object.freeze({ shown: false, reason: "no-capability" });
  const meta = capability.meta;
  if (typeof meta !== "object" || meta === null) return Object.freeze({ shown: false, reason: "descriptor-only" });
  const hook = meta.redact?.approvalInput;
  let shown: unknown;
  try {
    shown = typeof hook === "function" ? hook(input) : input;
  } catch {
    return Object.freeze({ shown: false, reason: "redaction-failed" });
  }
  let value: unknown;
  try {
    // Canonical JSON reads every getter and toJSON once and refuses cycles: the copy is exactly what a webhook carries.
    value = frozenCopy(JSON.parse(canonicalJson(shown)));
  } catch {
    return Object.freeze({ shown: false, reason: "unrepresentable" });
  }
  return Object.freeze({ shown: true, value, fields: labelledFields(value, inputJsonSchema(capability.inputSchema)) });
}

/** Top-level fields in the schema's property order, then any others by key; labels from `title`, else the key. */
function labelledFields(value: unknown, schema: JsonSchemaObject | undefined): readonly ApprovalViewField[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return Object.freeze([]);
  const properties = schemaProperties(schema);
  const keys = Object.keys(value);
  const declared = Object.keys(properties).filter((key) => Object.hasOwn(value, key));
  const ordered = [...declared, ...keys.filter((key) => !declared.includes(key))];
  return Object.freeze(
    ordered.map((key) => {
      const property = properties[key];
      const title = readString(property, "title");
      const description = readString(property, "description");
      const field: ApprovalViewField = {
        key,
        label: title ?? key,
        ...(description === undefined ? {} : { description }),
        value: (value as Record<string, unknown>)[key],
      };
      return Object.freeze(field);
    }),
  );
}

function schemaProperties(schema: JsonSchemaObject | undefined): Record<string, unknown> {
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return Object.create(null) as Record<string, unknown>;
  // Own keys only, on a prototype-free copy, so a property named "__proto__" or "constructor" labels nothing by accident.
  return Object.assign(Object.create(null) as Record<string, unknown>, properties);
}

function readString(property: unknown, key: "title" | "description"): string | undefined {
  if (typeof property !== "object" || property === null) return undefined;
  const text = (property as Record<string, unknown>)[key];
  return typeof text === "string" && text.length > 0 ? text : undefined;
}

/** A registry entry's Standard Schema converted (labels are a nicety: a schema that cannot convert gives none). */
function inputJsonSchema(schema: ApprovalViewCapability["inputSchema"]): JsonSchemaObject | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  if (!("~standard" in schema)) return schema as JsonSchemaObject;
  try {
    return toJsonSchema(schema as StandardSchemaV1);
  } catch {
    return undefined;
  }
}

// The JSON Schema of the result envelope (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-3-6), advertised as every tool's `outputSchema` on the
// v2 path so clients validate `structuredContent`. One branch per status; the root is an object, as both SDK lines
// require. No `format` keywords: validators without format support would refuse the schema.
import { DATA_SCHEMA_POINTER, type DataSchema } from "./output-data-schema.js";

/**
 * `error.details`: only `INPUT_INVALID` carries them, as the issues of the input (paths and messages, never values);
 * the envelope sends nothing else there (envelope.ts).
 */
const issuesDetails = () => ({
  type: "object",
  properties: {
    issues: {
      type: "array",
      items: {
        type: "object",
        properties: { path: { type: "array", items: { type: "string" } }, message: { type: "string" } },
        required: ["path", "message"],
        additionalProperties: false,
      },
    },
  },
  required: ["issues"],
  additionalProperties: false,
});

const modelError = () => ({
  type: "object",
  properties: {
    code: { type: "string" },
    message: { type: "string" },
    retryable: { type: "boolean" },
    details: issuesDetails(),
  },
  required: ["code", "message", "retryable"],
  additionalProperties: false,
});

/**
 * `data` of a capability that declares no output schema (and of the resume tool, which answers for any capability):
 * whatever JSON its handler returns, so nothing truthful narrows it.
 */
const OPEN_DATA_DESCRIPTION = "The capability's output. It declares no output schema, so this is whatever JSON value its handler returns.";

/**
 * Both SDK clients cache a compiled validator by `$id` (and compile anew per tool and per listing without one), so the
 * one envelope schema shared by every tool with open `data` is named, with its version: a change to its shape must
 * change the id. An envelope carrying a capability's own output schema has no id: it is that tool's alone.
 */
const ENVELOPE_SCHEMA_ID = "urn:orpc-agent:mcp:result-envelope:3";

/**
 * The envelope's schema, with `data` typed by `data` (a capability's output schema, from `dataSchemaOf`) or open.
 * The root's `type` and `required` hold for every branch, so the branches do not repeat them: the same validation in
 * a tenth fewer bytes on every listed tool. Built anew for each exchange (clients and SDKs may annotate what they
 * receive); a literal costs less than copying a template.
 */
export function envelopeOutputSchema(data?: DataSchema): { type: "object"; [key: string]: unknown } {
  return {
    ...(data === undefined && { $id: ENVELOPE_SCHEMA_ID }),
    type: "object",
    required: ["status"],
    oneOf: [
      {
        properties: {
          status: { const: "ok" },
          data: data === undefined ? { description: OPEN_DATA_DESCRIPTION } : { $ref: `#${DATA_SCHEMA_POINTER}` },
          // Approve with changes: where the input that ran differs from the one asked (RFC 6901 pointers).
          approvedWithChanges: { type: "object", properties: { changed: { type: "array", items: { type: "string" } } }, required: ["changed"], additionalProperties: false },
        },
        additionalProperties: false,
      },
      {
        properties: {
          status: { const: "approval-required" },
          approvalId: { type: "string" },
          message: { type: "string" },
          expiresAt: { type: "string" },
          url: { type: "string" },
        },
        required: ["approvalId", "message", "expiresAt"],
        additionalProperties: false,
      },
      {
        properties: { status: { const: "error" }, error: modelError() },
        required: ["error"],
        additionalProperties: false,
      },
    ],
    // A copy: validators annotate the schemas they compile (cfworker writes into every subschema).
    ...(data !== undefined && { $defs: { data: JSON.parse(JSON.stringify(data)) as unknown } }),
  };
}

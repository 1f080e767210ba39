// The JSON Schema of the result envelope (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-3-6), advertised as every tool's `outputSchema` on the
// v2 path so clients validate `structuredContent`. One branch per status; the root is an object, as both SDK lines
// require. No `format` keywords: validators without format support would refuse the schema.

const modelError = () => ({
  type: "object",
  properties: {
    code: { type: "string" },
    message: { type: "string" },
    retryable: { type: "boolean" },
    details: {},
  },
  required: ["code", "message", "retryable"],
  additionalProperties: false,
});

/**
 * Both SDK clients cache a compiled validator by `$id` (and compile anew per tool and per listing without one), so the
 * one envelope schema is named, with its version: a change to its shape must change the id.
 */
const ENVELOPE_SCHEMA_ID = "urn:orpc-agent:mcp:result-envelope:1";

// The root's `type` and `required` hold for every branch, so the branches do not repeat them: the same validation in
// a tenth fewer bytes on every listed tool. Built anew for each exchange (clients and SDKs may annotate what they
// receive); a literal costs less than copying a template.
export function envelopeOutputSchema(): { type: "object"; [key: string]: unknown } {
  return {
    $id: ENVELOPE_SCHEMA_ID,
    type: "object",
    required: ["status"],
    oneOf: [
      {
        properties: { status: { const: "ok" }, data: {} },
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
  };
}

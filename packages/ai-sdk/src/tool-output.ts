import { jsonSchema } from "ai";
import type { AISDKToolResult, RemoteAISDKToolResult } from "./types.js";

// The envelope as JSON Schema, so `InferUITools` types `tool-<name>` parts and a UI can tell the states apart.
// No `validate`: it describes what the adapter returns, it never judges it.

const MODEL_ERROR = {
  type: "object",
  properties: { code: { type: "string" }, message: { type: "string" }, retryable: { type: "boolean" }, details: {} },
  required: ["code", "message", "retryable"],
  additionalProperties: false,
} as const;

/** On a resume approved with changes: RFC 6901 pointers to where what ran differs, never the values. */
const APPROVED_WITH_CHANGES = {
  type: "object",
  properties: { changed: { type: "array", items: { type: "string" } } },
  required: ["changed"],
  additionalProperties: false,
} as const;

const OK = {
  type: "object",
  properties: { status: { const: "ok" }, data: {}, approvedWithChanges: APPROVED_WITH_CHANGES },
  required: ["status"],
  additionalProperties: false,
} as const;
const ERROR = { type: "object", properties: { status: { const: "error" }, error: MODEL_ERROR }, required: ["status", "error"], additionalProperties: false } as const;

/** JSON Schema of `AISDKToolResult` (docs/architecture/spec/adapters.md#adapters-1-5). */
export const TOOL_RESULT_SCHEMA = {
  oneOf: [
    OK,
    {
      type: "object",
      properties: { status: { const: "approval-required" }, approvalId: { type: "string" }, message: { type: "string" } },
      required: ["status", "approvalId", "message"],
      additionalProperties: false,
    },
    ERROR,
  ],
} as const;

/** JSON Schema of `RemoteAISDKToolResult` (docs/architecture/spec/adapters.md#adapters-2-6). */
export const REMOTE_TOOL_RESULT_SCHEMA = {
  oneOf: [
    OK,
    {
      type: "object",
      properties: { status: { const: "approval-required" }, approvalId: { type: "string" }, message: { type: "string" }, invocationId: { type: "string" } },
      required: ["status", "approvalId", "message", "invocationId"],
      additionalProperties: false,
    },
    ERROR,
    {
      type: "object",
      properties: { status: { const: "outcome-unknown" }, invocationId: { type: "string" }, message: { type: "string" } },
      required: ["status", "invocationId", "message"],
      additionalProperties: false,
    },
  ],
} as const;

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/** The output schema of a local tool; one frozen object shared by every tool. */
export const toolResultSchema = Object.freeze(jsonSchema<AISDKToolResult>(TOOL_RESULT_SCHEMA as unknown as JsonSchemaInput));
/** The output schema of a remote tool. */
export const remoteToolResultSchema = Object.freeze(jsonSchema<RemoteAISDKToolResult>(REMOTE_TOOL_RESULT_SCHEMA as unknown as JsonSchemaInput));

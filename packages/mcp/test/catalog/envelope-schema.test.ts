// The envelope's outputSchema accepts exactly the four envelopes the adapter sends and refuses near misses, on the
// SDK's own validators (Ajv, the default, and cfworker, the edge runtimes' choice): a smaller schema must not be a
// looser one.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { describe, expect, it } from "vitest";
import { envelopeOutputSchema } from "../../src/catalog/envelope-schema.js";

const VALID = [
  { status: "ok", data: { id: "o1" } },
  { status: "ok" },
  { status: "approval-required", approvalId: "apr_1", message: "Needs approval.", expiresAt: "2026-12-02T10:00:00.000Z" },
  { status: "approval-required", approvalId: "apr_1", message: "Needs approval.", expiresAt: "2026-12-02T10:00:00.000Z", url: "https://example.test/a" },
  { status: "error", error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true } },
  { status: "error", error: { code: "INPUT_INVALID", message: "Invalid input.", retryable: false, details: { issues: [] } } },
];

const INVALID = {
  "no status": { data: 1 },
  "an unknown status": { status: "pending" },
  "a key from another branch": { status: "ok", data: 1, approvalId: "apr_1" },
  "an unknown key": { status: "ok", extra: true },
  "approval-required without its approvalId": { status: "approval-required", message: "m", expiresAt: "t" },
  "approval-required with a numeric url": { status: "approval-required", approvalId: "a", message: "m", expiresAt: "t", url: 1 },
  "error without its error": { status: "error" },
  "an error missing retryable": { status: "error", error: { code: "X", message: "m" } },
  "an error with an unknown key": { status: "error", error: { code: "X", message: "m", retryable: false, cause: "db" } },
  "an array": [],
};

describe.each([
  { name: "Ajv", validator: new AjvJsonSchemaValidator() },
  { name: "cfworker", validator: new CfWorkerJsonSchemaValidator() },
])("the result envelope schema on the SDK's $name validator", ({ validator }) => {
  const validate = validator.getValidator(envelopeOutputSchema() as never);

  it.each(VALID)("accepts %j", (envelope) => {
    expect(validate(envelope).valid).toBe(true);
  });

  it.each(Object.entries(INVALID))("refuses %s", (_, value) => {
    expect(validate(value).valid).toBe(false);
  });
});

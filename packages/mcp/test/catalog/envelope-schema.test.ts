// The envelope's outputSchema accepts exactly the four envelopes the adapter sends and refuses near misses, on the
// SDK's own validators (Ajv, the default, and cfworker, the edge runtimes' choice): a smaller schema must not be a
// looser one.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { envelopeOutputSchema } from "../../src/catalog/envelope-schema.js";
import { dataSchemaOf } from "../../src/catalog/output-data-schema.js";

const VALID = [
  { status: "ok", data: { id: "o1" } },
  { status: "ok" },
  { status: "ok", data: "refunded", approvedWithChanges: { changed: ["/amount"] } },
  { status: "approval-required", approvalId: "apr_1", message: "Needs approval.", expiresAt: "2026-12-02T10:00:00.000Z" },
  { status: "approval-required", approvalId: "apr_1", message: "Needs approval.", expiresAt: "2026-12-02T10:00:00.000Z", url: "https://example.test/a" },
  { status: "error", error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true } },
  { status: "error", error: { code: "INPUT_INVALID", message: "Invalid input.", retryable: false, details: { issues: [] } } },
  { status: "error", error: { code: "INPUT_INVALID", message: "Invalid input.", retryable: false, details: { issues: [{ path: ["items", "0"], message: "Expected a string." }] } } },
];

const INVALID = {
  "no status": { data: 1 },
  "an unknown status": { status: "pending" },
  "a key from another branch": { status: "ok", data: 1, approvalId: "apr_1" },
  "an unknown key": { status: "ok", extra: true },
  "approvedWithChanges without changed": { status: "ok", approvedWithChanges: {} },
  "approvedWithChanges carrying the values": { status: "ok", approvedWithChanges: { changed: ["/amount"], before: { amount: 320 } } },
  "approval-required without its approvalId": { status: "approval-required", message: "m", expiresAt: "t" },
  "approval-required with a numeric url": { status: "approval-required", approvalId: "a", message: "m", expiresAt: "t", url: 1 },
  "error without its error": { status: "error" },
  "an error missing retryable": { status: "error", error: { code: "X", message: "m" } },
  "an error with an unknown key": { status: "error", error: { code: "X", message: "m", retryable: false, cause: "db" } },
  "details that are not issues": { status: "error", error: { code: "X", message: "m", retryable: false, details: "the row" } },
  "details with another key": { status: "error", error: { code: "X", message: "m", retryable: false, details: { issues: [], row: 7 } } },
  "an issue with a numeric path": { status: "error", error: { code: "X", message: "m", retryable: false, details: { issues: [{ path: [0], message: "m" }] } } },
  "an issue carrying the value": { status: "error", error: { code: "X", message: "m", retryable: false, details: { issues: [{ path: [], message: "m", input: "secret" }] } } },
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

// A capability's own output schema in its tool's envelope: `data` validates against it, `$ref`s included.
type Tree = { name: string; children: Tree[] };
const tree: z.ZodType<Tree> = z.object({ name: z.string(), get children() { return z.array(tree); } });
const leaf = z.object({ v: z.number() }).meta({ id: "Leaf" });
const TYPED = [
  {
    name: "an object with an optional field",
    output: z.object({ refundId: z.string(), amountCents: z.number().int(), note: z.string().optional() }),
    valid: [{ refundId: "r_1", amountCents: 500 }, { refundId: "r_1", amountCents: 500, note: "n" }],
    invalid: [{ refundId: "r_1" }, { refundId: 1, amountCents: 5 }, { refundId: "r_1", amountCents: 5, extra: true }, { refundId: "r_1", amountCents: 1.5 }],
  },
  {
    name: "a recursive schema (a $ref to its own root)",
    output: tree,
    valid: [{ name: "a", children: [{ name: "b", children: [] }] }],
    invalid: [{ name: "a", children: [{ name: 2, children: [] }] }, { name: "a" }],
  },
  {
    name: "a schema with $defs",
    output: z.object({ a: leaf, b: leaf }),
    valid: [{ a: { v: 1 }, b: { v: 2 } }],
    invalid: [{ a: { v: 1 }, b: { v: "2" } }],
  },
  {
    name: "an array of emails (format dropped, pattern kept)",
    output: z.array(z.email()),
    valid: [["a@example.com"]],
    invalid: [["not an email"], "a@example.com"],
  },
];

describe.each([
  { name: "Ajv", validator: new AjvJsonSchemaValidator() },
  { name: "cfworker", validator: new CfWorkerJsonSchemaValidator() },
])("an envelope carrying the capability's output schema, on the SDK's $name validator", ({ validator }) => {
  it.each(TYPED)("$name: data is checked against it; the other statuses are unchanged", ({ output, valid, invalid }) => {
    const data = dataSchemaOf({ outputSchema: output, meta: {} as never });
    expect(data).toBeDefined();
    const schema = envelopeOutputSchema(data);
    expect(schema.$id).toBeUndefined();
    const validate = validator.getValidator(schema as never);
    for (const value of valid) expect(validate({ status: "ok", data: value }).valid, JSON.stringify(value)).toBe(true);
    for (const value of invalid) expect(validate({ status: "ok", data: value }).valid, JSON.stringify(value)).toBe(false);
    for (const envelope of VALID.filter((envelope) => envelope.status !== "ok")) expect(validate(envelope).valid).toBe(true);
  });
});

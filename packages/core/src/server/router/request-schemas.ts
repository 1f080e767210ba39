import type { StandardSchemaV1 } from "@standard-schema/spec";
import { CORRELATION_ID_PATTERN, INVOCATION_ID_PATTERN } from "../../client/protocol.js";
import type { DescribeRequest, InvokeRequest, InvokeStreamRequest, ReconcileRequest, ResumeRequest, ResumeStreamRequest } from "../../client/types.js";

// Hand-written strict validators (docs/architecture/spec/distributed.md#distributed-3-2): core takes no Zod dependency, and a body carrying
// `actor`, `surface`, `namespace` or `context` must fail loudly rather than be silently ignored (D-1).
// Issue messages name keys, never values.

type Issue = StandardSchemaV1.Issue;
type Check = (value: Record<string, unknown>, issues: Issue[]) => void;

const MAX_ID_LENGTH = 256;

function strictObject<T>(keys: Record<string, Check>, optionalRoot = false): StandardSchemaV1<T, T> {
  return {
    "~standard": {
      version: 1,
      vendor: "orpc-agent",
      validate(value: unknown): StandardSchemaV1.Result<T> {
        if (value === undefined && optionalRoot) return { value: {} as T };
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          return { issues: [{ message: "The request body must be an object." }] };
        }
        const record = value as Record<string, unknown>;
        const issues: Issue[] = [];
        for (const key of Object.keys(record)) {
          if (!Object.hasOwn(keys, key)) issues.push({ message: `Unknown key "${key}"; it is fixed by the server or not part of this request.`, path: [key] });
        }
        for (const check of Object.values(keys)) check(record, issues);
        return issues.length > 0 ? { issues } : { value: record as T };
      },
    },
  };
}

const required = (key: string, test: (v: unknown) => boolean, what: string): Check => (value, issues) => {
  if (!test(value[key])) issues.push({ message: `${key} must be ${what}.`, path: [key] });
};
const optional = (key: string, test: (v: unknown) => boolean, what: string): Check => (value, issues) => {
  if (value[key] !== undefined && !test(value[key])) issues.push({ message: `${key} must be ${what}.`, path: [key] });
};

const isId = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH;
const isInvocationId = (v: unknown) => typeof v === "string" && INVOCATION_ID_PATTERN.test(v);
const isCorrelationId = (v: unknown) => typeof v === "string" && CORRELATION_ID_PATTERN.test(v);
const isBoolean = (v: unknown) => typeof v === "boolean";
const isStringArray = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === "string");

const scopeCheck: Check = (value, issues) => {
  const scope = value.scope;
  if (scope === undefined) return;
  if (typeof scope !== "object" || scope === null || Array.isArray(scope)) {
    issues.push({ message: "scope must be { tags?: string[]; ids?: string[] }.", path: ["scope"] });
    return;
  }
  for (const [key, list] of Object.entries(scope)) {
    if (key !== "tags" && key !== "ids") issues.push({ message: `Unknown scope key "${key}".`, path: ["scope", key] });
    else if (list !== undefined && !isStringArray(list)) issues.push({ message: `scope.${key} must be an array of strings.`, path: ["scope", key] });
  }
};

const INVOCATION_ID = "an id matching /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/";

export const describeRequestSchema = strictObject<DescribeRequest>({ scope: scopeCheck }, true);

const invokeKeys: Record<string, Check> = {
  capabilityId: required("capabilityId", isId, "a non-empty string"),
  input: () => {},
  invocationId: required("invocationId", isInvocationId, INVOCATION_ID),
  correlationId: optional("correlationId", isCorrelationId, "1 to 200 printable characters"),
  expectedDigest: optional("expectedDigest", isId, "a digest string from describe"),
};
const resumeKeys: Record<string, Check> = {
  invocationId: required("invocationId", isInvocationId, INVOCATION_ID),
  approvalId: required("approvalId", isId, "a non-empty string"),
};
/** What a streaming procedure delivers; only these two keys are added to the plain request. */
const deliveryKeys: Record<string, Check> = {
  events: optional("events", isBoolean, "a boolean"),
  progress: optional("progress", isBoolean, "a boolean"),
};

export const invokeRequestSchema = strictObject<InvokeRequest>(invokeKeys);
export const resumeRequestSchema = strictObject<ResumeRequest>(resumeKeys);
export const invokeStreamRequestSchema = strictObject<InvokeStreamRequest>({ ...invokeKeys, ...deliveryKeys });
export const resumeStreamRequestSchema = strictObject<ResumeStreamRequest>({ ...resumeKeys, ...deliveryKeys });

export const reconcileRequestSchema = strictObject<ReconcileRequest>({
  invocationId: required("invocationId", isInvocationId, INVOCATION_ID),
});

import { CORRELATION_ID_PATTERN, INVOCATION_ID_PATTERN } from "../client/protocol.js";
import type { DescribeRequest, InvokeRequest, ReconcileRequest, RemoteCallOptions, RemoteExecuteOptions, ResumeRequest } from "../client/types.js";

// Caller errors caught before anything is sent: the only way `invoke`/`resume` reject (docs/architecture/spec/distributed.md#distributed-1).

function fail(op: string, message: string): never {
  throw new TypeError(`${op}: ${message}`);
}

function checkInvocationId(op: string, id: unknown): void {
  if (typeof id !== "string" || !INVOCATION_ID_PATTERN.test(id)) fail(op, `invocationId must match ${INVOCATION_ID_PATTERN}; allocate it before calling.`);
}

function checkObject(op: string, req: unknown): asserts req is Record<string, unknown> {
  if (typeof req !== "object" || req === null || Array.isArray(req)) fail(op, "the request must be an object.");
}

export function checkCallOptions(op: string, o: RemoteCallOptions | undefined): void {
  if (o === undefined) return;
  if (typeof o !== "object" || o === null) fail(op, "options must be { signal?, timeoutMs? }.");
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) fail(op, "options.signal must be an AbortSignal.");
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === "number" && Number.isFinite(o.timeoutMs) && o.timeoutMs > 0)) {
    fail(op, "options.timeoutMs must be a finite number > 0.");
  }
  const hooks = o as RemoteExecuteOptions;
  if (hooks.onEvent !== undefined && typeof hooks.onEvent !== "function") fail(op, "options.onEvent must be a function.");
  if (hooks.onProgress !== undefined && typeof hooks.onProgress !== "function") fail(op, "options.onProgress must be a function.");
}

export function checkInvokeRequest(req: InvokeRequest): void {
  checkObject("invoke", req);
  if (typeof req.capabilityId !== "string" || req.capabilityId.length === 0) fail("invoke", "capabilityId must be a non-empty string.");
  checkInvocationId("invoke", req.invocationId);
  if (req.correlationId !== undefined && (typeof req.correlationId !== "string" || !CORRELATION_ID_PATTERN.test(req.correlationId))) {
    fail("invoke", "correlationId must be 1 to 200 printable characters.");
  }
  if (req.expectedDigest !== undefined && (typeof req.expectedDigest !== "string" || req.expectedDigest.length === 0)) {
    fail("invoke", "expectedDigest must be a digest string from describe.");
  }
}

export function checkResumeRequest(req: ResumeRequest): void {
  checkObject("resume", req);
  checkInvocationId("resume", req.invocationId);
  if (typeof req.approvalId !== "string" || req.approvalId.length === 0) fail("resume", "approvalId must be a non-empty string.");
}

export function checkReconcileRequest(req: ReconcileRequest): void {
  checkObject("reconcile", req);
  checkInvocationId("reconcile", req.invocationId);
}

export function checkDescribeRequest(req: DescribeRequest | undefined): void {
  if (req === undefined) return;
  checkObject("describe", req);
}

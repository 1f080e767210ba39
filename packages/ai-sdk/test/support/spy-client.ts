// A CapabilityClient that records what the remote overload asks of it, delegating to a real one unless told
// otherwise, so tests see the exact describe and invoke requests or make the client misbehave (docs/architecture/spec/adapters.md#adapters-2-6).
import type {
  CapabilityClient,
  DescribeRequest,
  DescribeResponse,
  InvokeRequest,
  RemoteCallOptions,
  RemoteDescriptor,
  RemoteExecutionResult,
} from "@orpc-agent/core/client";

export type ClientCall<R> = { request: R; options: RemoteCallOptions | undefined };
export type InvokeBehaviour = (request: InvokeRequest, options: RemoteCallOptions | undefined) => Promise<RemoteExecutionResult>;

export function spyClient(
  real: CapabilityClient | undefined,
  overrides: {
    describe?: (request: DescribeRequest | undefined, options: RemoteCallOptions | undefined) => Promise<DescribeResponse>;
    invoke?: InvokeBehaviour;
  } = {},
) {
  const describes: ClientCall<DescribeRequest | undefined>[] = [];
  const invokes: ClientCall<InvokeRequest>[] = [];
  const missing = (op: string) => () => Promise.reject(new Error(`spyClient: no ${op} behaviour and no real client`));
  const client: CapabilityClient = {
    describe(request, options) {
      describes.push({ request, options });
      return (overrides.describe ?? real?.describe.bind(real) ?? missing("describe"))(request, options);
    },
    invoke(request, options) {
      invokes.push({ request, options });
      return (overrides.invoke ?? real?.invoke.bind(real) ?? missing("invoke"))(request, options) as never;
    },
    resume: (request, options) => (real ? real.resume(request, options) : missing("resume")()) as never,
    reconcile: (request, options) => (real ? real.reconcile(request, options) : missing("reconcile")()) as never,
  };
  return { client, describes, invokes };
}

/** A descriptor as a server would send it; `toolNames.aiSdk` defaults to the id with `.` → `_`. */
export function remoteDescriptor(id: string, overrides: Partial<RemoteDescriptor> = {}): RemoteDescriptor {
  const name = id.replaceAll(".", "_");
  return {
    id,
    description: `The ${id} capability.`,
    inputSchema: { type: "object", properties: {} },
    sideEffect: "read",
    risk: "low",
    tags: [],
    idempotent: false,
    toolNames: { aiSdk: name, mcp: name },
    digest: `d1.${name}`,
    ...overrides,
  };
}

export function describeResponse(descriptors: RemoteDescriptor[]): DescribeResponse {
  return { protocol: 1, namespace: "tests", surface: "aiSdk", catalogDigest: "c1.test", descriptors };
}

const envelope = (invocationId: string) => ({ protocol: 1 as const, invocationId, executionId: "exe_1", replayed: false });

/** Results a server could send, for the invocation `invocationId`. */
export const remoteResults = {
  completed: (invocationId: string, output: unknown = { done: true }): RemoteExecutionResult => ({ ...envelope(invocationId), status: "completed", output }),
  approvalRequired: (invocationId: string, reasons: string[] = ["Approval is required for orders.refund."]): RemoteExecutionResult => ({
    ...envelope(invocationId),
    status: "approval-required",
    approval: {
      id: "apr_1",
      capabilityId: "orders.refund",
      status: "pending",
      reasons,
      types: ["manager"],
      requestedAt: "2030-01-01T00:00:00.000Z",
      expiresAt: "2030-01-01T00:15:00.000Z",
    },
  }),
  failed: (invocationId: string, error: { code: string; message: string; retryable: boolean; details?: unknown }): RemoteExecutionResult =>
    ({ ...envelope(invocationId), status: "failed", error }) as RemoteExecutionResult,
  cancelled: (invocationId: string): RemoteExecutionResult => ({
    ...envelope(invocationId),
    status: "cancelled",
    error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false },
  }),
  outcomeUnknown: (invocationId: string, reason: "transport" | "aborted" | "in-progress" = "transport"): RemoteExecutionResult => ({
    protocol: 1,
    status: "outcome-unknown",
    invocationId,
    reason,
    message: "The connection failed after the request was sent; reconcile this invocation before repeating it.",
  }),
};

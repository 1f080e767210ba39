// @orpc-agent/core/client — the browser-safe remote capability contract (docs/architecture/spec/distributed.md#distributed-1).
// Imports nothing at run time; scripts/check-boundaries.mjs enforces it.
export { REMOTE_PROTOCOL, isOutcomeUnknown, isSettled } from "./protocol.js";
export type {
  ApprovalStatus,
  CapabilityClient,
  CapabilityClientFailure,
  DescribeRequest,
  DescribeResponse,
  ErrorCode,
  InvokeRequest,
  JsonSchemaObject,
  OutcomeUnknown,
  ReconcileRequest,
  ReconcileResult,
  RemoteApproval,
  RemoteCallOptions,
  RemoteDescriptor,
  RemoteError,
  RemoteErrorCode,
  RemoteExecutionResult,
  RemoteOperation,
  RemoteSurface,
  ResumeRequest,
  RiskLevel,
  SideEffect,
} from "./types.js";

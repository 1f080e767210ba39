// @orpc-agent/core/client — the browser-safe remote capability contract (docs/architecture/spec/distributed.md#distributed-1).
// Imports nothing at run time; scripts/check-boundaries.mjs enforces it.
export { REMOTE_PROTOCOL, isOutcomeUnknown, isSettled } from "./protocol.js";
export { readApprovedWithChanges } from "./approved-with-changes.js";
export type {
  ApprovalStatus,
  CapabilityClient,
  CapabilityClientFailure,
  DescribeRequest,
  DescribeResponse,
  ErrorCode,
  InvokeRequest,
  InvokeStreamRequest,
  JsonSchemaObject,
  OutcomeUnknown,
  ProgressUpdate,
  ReconcileRequest,
  ReconcileResult,
  RemoteApproval,
  RemoteCallOptions,
  RemoteDescriptor,
  RemoteError,
  RemoteErrorCode,
  RemoteExecuteOptions,
  RemoteExecutionResult,
  RemoteOperation,
  RemoteStreamFrame,
  RemoteSurface,
  ResumeRequest,
  ResumeStreamRequest,
  RiskLevel,
  SideEffect,
  StreamDelivery,
} from "./types.js";

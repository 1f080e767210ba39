// Public entry of @orpc-agent/dbos: durable workflow steps on DBOS Transact (docs/architecture/spec/distributed.md#distributed-9-2).
export { createDBOSCapabilitySteps } from "./create-dbos-capability-steps.js";
export type { DBOSCapabilityStepsOptions } from "./create-dbos-capability-steps.js";
export { dbosInvocationId } from "./invocation-id.js";
export { approvalEventKey } from "./topics.js";
export type { DBOSCapabilitySteps, DBOSInvokeOptions, WakeTarget } from "./types.js";
export { createDbosCapabilitySteps } from "./deprecated-names.js";
export type { DbosCapabilitySteps, DbosCapabilityStepsOptions, DbosInvokeOptions } from "./deprecated-names.js";

// Public entry of @orpc-agent/dbos: durable workflow steps on DBOS Transact (docs/architecture/spec/distributed.md#distributed-9-2).
export { createDbosCapabilitySteps } from "./create-dbos-capability-steps.js";
export { dbosInvocationId } from "./invocation-id.js";
export { approvalEventKey } from "./topics.js";
export type { DbosCapabilitySteps, DbosCapabilityStepsOptions, DbosInvokeOptions, WakeTarget } from "./types.js";

// Public entry of @orpc-agent/dbos: durable workflow steps on DBOS Transact (distributed.md §9.2).
export { createDbosCapabilitySteps } from "./create-dbos-capability-steps.js";
export { dbosInvocationId } from "./invocation-id.js";
export { approvalEventKey } from "./topics.js";
export type { DbosCapabilitySteps, DbosCapabilityStepsOptions, DbosInvokeOptions, WakeTarget } from "./types.js";

// Public entry of @orpc-agent/testing (docs/architecture/spec/adapters.md#adapters-4).
export { createAgentTestRuntime } from "./create-test-runtime.js";
export type { AgentTestRuntime, AgentTestRuntimeOptions, TestInvokeOptions } from "./create-test-runtime.js";
export type { TestApprovals } from "./test-approvals.js";
export type { TestGrantOptions, TestGrants } from "./test-grants.js";
export type { HandlerOverride } from "./handler-overrides.js";
export { approvalProbe } from "./approval-probe.js";
export type { ApprovalProbe } from "./approval-probe.js";
export { capturedAudit } from "./captured-audit.js";
export type { CapturedAudit } from "./captured-audit.js";
export { fakeActor } from "./fake-actor.js";
export { testClock } from "./test-clock.js";
export type { TestClock } from "./test-clock.js";

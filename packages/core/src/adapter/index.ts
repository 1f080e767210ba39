// `@orpc-agent/core/adapter`: what every adapter (ours and third parties') shares, so a surface's adapter only
// translates between its protocol and the runtime. See docs/guides/writing-an-adapter.md.
export { ConfigurationError } from "./configuration-error.js";
export { approvalMessage, CONCEALED_MESSAGE, NOT_FOUND_MESSAGE } from "./messages.js";
export { toolNameCollision, toolNameMap, type ToolNameMap, type ToolNameRules } from "./tool-name-map.js";
export { defaultToolName, isReservedToolName, resolveToolName, type ToolSurface } from "../registry/tool-name.js";
export { isWellFormedActor } from "../vocabulary/types.js";
export { matchesRequester } from "../runtime/resume-guard.js";
export { toModelError } from "../errors/capability-error.js";
export { approvalDemand, type ApprovalDemand } from "./approval-demand.js";
export type { ModelError } from "../errors/model-error.js";

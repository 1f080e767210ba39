// Public entry of @orpc-agent/ai-sdk (docs/architecture/spec/adapters.md#adapters-2): surface `aiSdk`, one governed tool per capability, over a
// local runtime or a remote CapabilityClient; `governChat` adds AI SDK UI part states, approval cards and
// requester confirmations.
export { toAISDKTools } from "./to-ai-sdk-tools.js";
export type { AISDKToolsOptions } from "./options.js";
export type { RemoteAISDKToolsOptions } from "./remote-options.js";
export type { AISDKToolResult, AISDKToolSet, RemoteAISDKToolResult, RemoteAISDKToolSet } from "./types.js";
export type { GovernedToolMetadata } from "./tool-metadata.js";
export { governChat } from "./ui/govern-chat.js";
export type { GovernedChat, GovernedChatOptions } from "./ui/govern-chat.js";
export { APPROVAL_PART_TYPE, approvalOutcomePart, reconcileApprovalPart } from "./ui/approval-part.js";
export type { GovernedApprovalChunk, GovernedApprovalData, GovernedApprovalState, GovernedUIDataTypes } from "./ui/approval-part.js";
export { TOOL_PROGRESS_PART_TYPE } from "./ui/progress-part.js";
export type { ToolProgressChunk, ToolProgressData } from "./ui/progress-part.js";
export type { AnsweredConversation, ConfirmationAnswer, ConfirmationOutcome } from "./ui/answer-confirmations.js";
export type { ConversationGrantOffer } from "./ui/grant-offer.js";

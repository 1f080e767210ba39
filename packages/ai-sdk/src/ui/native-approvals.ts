import * as ai from "ai";

/**
 * Whether the loaded `ai` has the UI approval vocabulary (`tool-approval-request`, `approval-responded`,
 * `output-denied`, `addToolApprovalResponse`): `ai` 6 and 7. Detected by export, as the legs detect majors
 * (docs/architecture/spec/adapters.md#adapters-2-1); on `ai` 5 requester confirmations fall back to the card and answers the app passes in.
 */
export const HAS_NATIVE_APPROVALS = "lastAssistantMessageIsCompleteWithApprovalResponses" in ai;

/**
 * Whether the UI stream carries the approval decision too (`tool-approval-response` chunks, `isAutomatic`,
 * `part.approval.reason` set by the server): `ai` 7, detected by `WebSocketChatTransport` (docs/architecture/spec/adapters.md#adapters-2-1).
 * An `ai` 6 client rejects a chunk type it does not know, so none is sent there.
 */
export const HAS_APPROVAL_RESPONSE_CHUNKS = "WebSocketChatTransport" in ai;

import * as ai from "ai";

/**
 * Whether the loaded `ai` has the UI approval vocabulary (`tool-approval-request`, `approval-responded`,
 * `addToolApprovalResponse`): `ai` 6 and 7. Detected by export, as the legs detect majors (adapters.md §2.1);
 * on `ai` 5 requester confirmations fall back to the card and answers the app passes in.
 */
export const HAS_NATIVE_APPROVALS = "lastAssistantMessageIsCompleteWithApprovalResponses" in ai;

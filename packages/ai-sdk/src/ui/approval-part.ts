import type { ExecutionResult } from "@orpc-agent/core";
import { toToolResult } from "../result.js";
import type { AISDKToolResult } from "../types.js";
import type { ConversationGrantOffer } from "./grant-offer.js";
import type { ToolProgressData } from "./progress-part.js";

/** The `data-*` name of the approval card: parts are `{ type: "data-agent-approval", id: approvalId, data }`. */
export const APPROVAL_PART_TYPE = "data-agent-approval";

/**
 * Where one governed approval stands, as the chat shows it. `confirmation-requested`: the requester confirms in
 * the chat; `pending`: someone decides in the app; the rest are outcomes. `refused`: a browser answer the runtime
 * never asked for, for other input, replayed or forged; nothing was decided or executed.
 */
export type GovernedApprovalState = "confirmation-requested" | "pending" | "completed" | "rejected" | "expired" | "failed" | "refused";

export type GovernedApprovalData = {
  approvalId: string;
  toolCallId?: string;
  toolName?: string;
  state: GovernedApprovalState;
  /** Public text only (SI-9): the envelope's message or the public error message. */
  message: string;
  /** The model-safe envelope of the outcome, once there is one. */
  result?: AISDKToolResult;
  /**
   * On a `confirmation-requested` card: the "allow for this conversation" choice, exactly the grant the server will
   * issue when the requester takes it (answer with `grant: "conversation"`, SI-13). Absent: allow once only.
   */
  grant?: ConversationGrantOffer;
};

/** The card as a UI message chunk; the same `id` reconciles it in place (AI SDK UI data parts). */
export type GovernedApprovalChunk = { type: typeof APPROVAL_PART_TYPE; id: string; data: GovernedApprovalData; transient?: true };

/** For `UIMessage<Metadata, GovernedUIDataTypes>`: types the card's `data-agent-approval` parts and the transient `data-tool-progress` ones. */
export type GovernedUIDataTypes = { "agent-approval": GovernedApprovalData; "tool-progress": ToolProgressData };

export function approvalChunk(data: GovernedApprovalData): GovernedApprovalChunk {
  return { type: APPROVAL_PART_TYPE, id: data.approvalId, data };
}

/** What an outcome says on the card: only what the model may also see. */
export function outcomeData(approvalId: string, result: AISDKToolResult, call: { toolCallId?: string; toolName?: string } = {}): GovernedApprovalData {
  const data: GovernedApprovalData = { approvalId, state: outcomeState(result), message: outcomeMessage(result), result };
  if (call.toolCallId !== undefined) data.toolCallId = call.toolCallId;
  if (call.toolName !== undefined) data.toolName = call.toolName;
  return data;
}

/**
 * The card update for an out-of-band decision: after someone decided in the app and the app called
 * `runtime.resume`, write this chunk into the same conversation and the card keyed by `approvalId` updates in
 * place. The outcome goes through the envelope translation, so nothing the model must not see reaches it (SI-9).
 * `transient: true` delivers it to `useChat`'s `onData` only, for a card in an earlier message: the client applies
 * it with `reconcileApprovalPart`, so the card changes where it is instead of reappearing in the new message.
 *
 * @example
 * import { approvalOutcomePart } from "@orpc-agent/ai-sdk";
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import type { UIMessageStreamWriter } from "ai";
 * declare const runtime: AgentRuntime<{ tenant: string }>, context: { tenant: string }, actor: Actor;
 * declare const approvalId: string, writer: UIMessageStreamWriter; // the conversation's stream (createUIMessageStream)
 * const outcome = await runtime.resume(approvalId, { context, expectedActor: actor, expectedSurface: "aiSdk" });
 * writer.write(approvalOutcomePart(approvalId, outcome));
 */
export function approvalOutcomePart(
  approvalId: string,
  outcome: ExecutionResult,
  call: { toolCallId?: string; toolName?: string; transient?: boolean } = {},
): GovernedApprovalChunk {
  const chunk = approvalChunk(outcomeData(approvalId, toToolResult(outcome), call));
  if (call.transient === true) chunk.transient = true;
  return chunk;
}

/**
 * The messages with every card keyed by `part.id` replaced by `part` (same message, same position), as the UI
 * reconciles a streamed update: for stored conversations on the server, and in the browser for a transient update
 * (`useChat({ onData })`). Messages without the card are returned unchanged. Pure; safe in the browser.
 */
export function reconcileApprovalPart<M extends { parts: readonly unknown[] }>(messages: readonly M[], part: GovernedApprovalChunk): M[] {
  return messages.map((message) => {
    const index = message.parts.findIndex((p) => isApprovalPart(p) && p.id === part.id);
    if (index === -1) return message;
    const parts = [...message.parts];
    parts[index] = { type: part.type, id: part.id, data: part.data };
    return { ...message, parts };
  });
}

function isApprovalPart(part: unknown): part is GovernedApprovalChunk {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === APPROVAL_PART_TYPE;
}

function outcomeState(result: AISDKToolResult): GovernedApprovalState {
  if (result.status === "ok") return "completed";
  if (result.status === "approval-required") return "pending";
  if (result.error.code === "APPROVAL_REJECTED") return "rejected";
  if (result.error.code === "APPROVAL_EXPIRED") return "expired";
  return "failed";
}

function outcomeMessage(result: AISDKToolResult): string {
  if (result.status === "ok") return "Approved; the operation completed.";
  if (result.status === "approval-required") return result.message;
  return result.error.message;
}

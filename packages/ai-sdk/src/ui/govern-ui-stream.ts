import type { UIMessageChunk } from "ai";
import type { AISDKToolResult } from "../types.js";
import { approvalChunk, type GovernedApprovalData } from "./approval-part.js";
import type { ConversationGrantOffer } from "./grant-offer.js";
import { denialChunks, isDenial } from "./denial.js";
import { HAS_NATIVE_APPROVALS } from "./native-approvals.js";
import { interleaveProgress, PROGRESS_HIGH_WATER_MARK } from "./progress-interleave.js";
import type { ProgressRelay } from "./progress-relay.js";

/** What the stream rewrite needs to know about one build: its tool names, and which approvals the requester confirms. */
export type UIStreamGovernance = {
  toolNames: ReadonlySet<string>;
  /** Whether the runtime approval `approvalId`, demanded by the call `toolCallId` of this request, is requester-confirmable. */
  isConfirmable(toolCallId: string, approvalId: string): boolean;
  /** The card's "allow for this conversation" offer for a confirmable approval, if any (SI-13). */
  grantOffer?(toolCallId: string, approvalId: string): ConversationGrantOffer | undefined;
  /** This chat's progress reports, written as transient `data-tool-progress` chunks beside the calls they belong to. */
  progress?: ProgressRelay;
};

type Chunk = { type: string; toolCallId?: string; toolName?: string; output?: unknown; preliminary?: boolean; [key: string]: unknown };

/**
 * Rewrites the governed tools' outputs in a UI message stream so the part state says what happened:
 * `ok` stays `output-available`; a denial (policy, authorization, concealed failure) becomes `output-denied` with
 * the public message as its reason on `ai` 6 and 7 (`output-error` on `ai` 5); any other error envelope (invalid
 * input, timeout, a declared error) becomes `output-error` with the public message only (SI-9);
 * `approval-required` stays `output-available`
 * with a pending card (`data-agent-approval`, keyed by approval id), or, for a requester-confirmable approval
 * on `ai` 6 and 7, becomes the SDK's `tool-approval-request` carrying the runtime's approval id. The model's
 * view is untouched: it read the envelope in the loop. Progress reports of this chat's calls (`governance.progress`)
 * are written as transient `data-tool-progress` chunks after the call's input and before its output.
 */
export function governUIMessageStream(stream: ReadableStream<UIMessageChunk>, governance: UIStreamGovernance): ReadableStream<UIMessageChunk> {
  const toolNameOf = new Map<string, string>();
  const progress = governance.progress === undefined ? undefined : interleaveProgress(governance.progress);
  const governed = (chunk: Chunk) => typeof chunk.toolCallId === "string" && governance.toolNames.has(toolNameOf.get(chunk.toolCallId) ?? "");
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>(
      {
        start(controller) {
          progress?.start(controller);
        },
        transform(input, controller) {
          const chunk = input as unknown as Chunk;
          if ((chunk.type === "tool-input-start" || chunk.type === "tool-input-available") && typeof chunk.toolCallId === "string" && typeof chunk.toolName === "string") {
            toolNameOf.set(chunk.toolCallId, chunk.toolName);
          }
          if (progress !== undefined && governed(chunk)) progress.before(chunk);
          for (const out of governChunk(chunk, input, toolNameOf, governance)) controller.enqueue(out);
          if (progress !== undefined && governed(chunk)) progress.after(chunk);
        },
        flush(controller) {
          progress?.finish(controller);
        },
      },
      undefined,
      // Room for progress between the model's chunks; see interleaveProgress.
      { highWaterMark: PROGRESS_HIGH_WATER_MARK },
    ),
  );
}

function governChunk(chunk: Chunk, input: UIMessageChunk, toolNameOf: ReadonlyMap<string, string>, governance: UIStreamGovernance): UIMessageChunk[] {
  if (chunk.type !== "tool-output-available" || typeof chunk.toolCallId !== "string") return [input];
  const toolName = toolNameOf.get(chunk.toolCallId);
  const envelope = chunk.output as AISDKToolResult | undefined;
  if (toolName === undefined || !governance.toolNames.has(toolName) || typeof envelope !== "object" || envelope === null) return [input];
  if (chunk.preliminary === true) {
    // A governed stream's preliminary results are its events, always `ok`. The SDK also sends the final value as a
    // preliminary one first; when that is an error or an approval, the final chunk says it, so the echo is dropped and
    // a refused, hidden or gated stream looks in the chat exactly like a plain tool's answer (SI-8).
    return envelope.status === "ok" ? [input] : [];
  }
  return rewrite(chunk, envelope, toolName, governance) as unknown as UIMessageChunk[];
}

function rewrite(chunk: Chunk, envelope: AISDKToolResult, toolName: string, governance: UIStreamGovernance): object[] {
  const toolCallId = chunk.toolCallId!;
  switch (envelope.status) {
    case "error": {
      if (HAS_NATIVE_APPROVALS && isDenial(envelope)) return denialChunks(toolCallId, envelope);
      const out: Record<string, unknown> = { type: "tool-output-error", toolCallId, errorText: envelope.error.message };
      for (const key of ["providerExecuted", "providerMetadata", "toolMetadata", "dynamic"]) if (chunk[key] !== undefined) out[key] = chunk[key];
      return [out];
    }
    case "approval-required": {
      const { approvalId, message } = envelope;
      if (!governance.isConfirmable(toolCallId, approvalId)) return [chunk, approvalChunk({ approvalId, toolCallId, toolName, state: "pending", message })];
      const data: GovernedApprovalData = { approvalId, toolCallId, toolName, state: "confirmation-requested", message };
      const offer = governance.grantOffer?.(toolCallId, approvalId);
      if (offer !== undefined) data.grant = offer;
      const card = approvalChunk(data);
      // `ai` 5 has no approval parts: the envelope stays the output and the card carries the confirmation.
      if (!HAS_NATIVE_APPROVALS) return [chunk, card];
      return [{ type: "tool-approval-request", toolCallId, approvalId, approvalDescriptor: envelope }, card];
    }
    default:
      return [chunk];
  }
}

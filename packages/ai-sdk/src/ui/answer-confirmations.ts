import type { UIMessageChunk } from "ai";
import { CapabilityError, type Actor, type AgentRuntime, type ApprovalRecord, type GrantRequest } from "@orpc-agent/core";
import { matchesRequester, toModelError } from "@orpc-agent/core/adapter";
import { concealedResult, toToolResult } from "../result.js";
import type { AISDKToolResult } from "../types.js";
import { namedApprovalId, wellFormedAnswer, withCompanion, type ConfirmationAnswer, type ReceivedAnswer } from "./answer-shape.js";
import { approvalChunk, outcomeData, type GovernedApprovalChunk } from "./approval-part.js";
import { completeDenial } from "./denial.js";
import type { ConversationGrantOffer } from "./grant-offer.js";
import { sameJson } from "./same-json.js";

export type { ConfirmationAnswer } from "./answer-shape.js";

/**
 * What happened to one answer. `executed`: confirmed, and the call completed. `failed`: confirmed (the record is
 * decided) but the call did not complete: resume refused it or it failed; `result` says why. `rejected`: the
 * requester said no. `refused`: nothing was decided and nothing ran.
 */
export type ConfirmationOutcome = {
  /** The approval the answer named; empty when it named none as a string. */
  approvalId: string;
  /** Absent for an answer that matched no part. */
  toolCallId?: string;
  outcome: "executed" | "failed" | "rejected" | "refused";
  result: AISDKToolResult;
  /** The standing grant issued with this answer ("allow for this conversation", SI-13), when one was. */
  grantId?: string;
};

export type AnsweredConversation<M> = {
  /** The conversation with every answered part settled: hand these to `convertToModelMessages` and persist them. */
  messages: M[];
  /** Chunks that settle the answered parts of the last assistant message in the browser; write them first. */
  chunks: UIMessageChunk[];
  outcomes: ConfirmationOutcome[];
};

export type ConfirmationBinding<TContext> = {
  runtime: AgentRuntime<TContext>;
  actor: Actor;
  context: TContext;
  signal?: AbortSignal;
  confirmable: ReadonlySet<string>;
  /** The wire name of a capability id in this build. */
  toolNameOf(capabilityId: string): string | undefined;
  /** This build's tool names: parts of other tools (the app's own) are left alone. */
  toolNames: ReadonlySet<string>;
  /** The chat's conversation id, from the server (`options.conversationId`): the only conversation a grant may name. */
  conversationId?: string;
  /** The card's "allow for this conversation" offer for a capability, computed on the server; `undefined`: none. */
  grantOffer(capabilityId: string): ConversationGrantOffer | undefined;
};

/** What the browser sees for a refused answer; deliberately says nothing about why (forged, replayed, other input). */
export const REFUSED_MESSAGE = "This confirmation was not accepted.";
const REJECTED_MESSAGE = "The request was not confirmed.";

type Part = { type: string; toolCallId?: unknown; state?: string; input?: unknown; output?: unknown; approval?: { id?: unknown; approved?: unknown; reason?: unknown }; [key: string]: unknown };
type Message = { role: string; parts: readonly unknown[] };

/**
 * Routes every browser answer through the runtime (SI-4, SI-5): an `approval-responded` tool part (`ai` 6, 7) or
 * an explicit answer (`ai` 5) becomes `runtime.approvals.decide` by this request's actor on the record the runtime
 * created, but only when the answer is well formed (`wellFormedAnswer`), and the record is pending, was requested
 * by this principal (resume's own guard: id, kind and acting agent, SI-3) on `aiSdk` for this tool and exactly this
 * input, and demands only requester-confirmable types. An approval is then resumed, which executes it once. Anything
 * else is refused: nothing is decided or run. Every `approval-responded` part of a governed tool is settled, so the
 * SDK itself never executes one on an answer from the browser; other tools' parts are untouched. Of the app's
 * answers, the first naming an approval counts and a later one is refused; a second part answering an approval
 * another part of this request decided finds it no longer pending.
 */
export async function answerConfirmations<M extends Message, TContext>(
  binding: ConfirmationBinding<TContext>,
  messages: readonly M[],
  answers: readonly ConfirmationAnswer[] = [],
): Promise<AnsweredConversation<M>> {
  const copy = structuredClone(messages) as M[];
  const lastIndex = copy.length - 1;
  const chunks: object[] = [];
  const outcomes: ConfirmationOutcome[] = [];
  const { explicit, stray } = byApprovalId(answers);
  const used = new Set<string>();

  for (let m = 0; m < copy.length; m++) {
    const message = copy[m]!;
    if (message.role !== "assistant") continue;
    for (const raw of message.parts) {
      const part = raw as Part;
      if (!isToolPart(part)) continue;
      const toolName = part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);
      if (!binding.toolNames.has(toolName)) continue;
      // A denial streamed on ai 6 gets the SDK's complete `output-denied` shape; it was never an approval to answer.
      if (completeDenial(part)) continue;
      const received = answerOf(part, explicit);
      if (received === undefined) {
        // An unanswered native request: the envelope goes back as the output, so the model's history stays whole.
        if (part.state === "approval-requested") settle(part, { status: "unanswered", result: pendingEnvelope(part) });
        continue;
      }
      const approvalId = namedApprovalId(received);
      // ai 6, 7: the app's answer beside the SDK's part carries the card's grant choice; the two must agree.
      const companion = received.from === "part" && explicit.has(approvalId) ? { value: explicit.get(approvalId) } : undefined;
      if (received.from === "app" || companion !== undefined) used.add(approvalId);
      // A part without a string call id names no call: its answer is refused, and the part still settled.
      const toolCallId = typeof part.toolCallId === "string" ? part.toolCallId : undefined;
      let answer = toolCallId === undefined ? undefined : wellFormedAnswer(received);
      if (companion !== undefined) answer = withCompanion(answer, companion.value);
      const outcome = answer === undefined ? refusedDecision() : await decideAnswer(binding, answer, { toolName, input: part.input });
      settle(part, outcome);
      outcomes.push({
        approvalId,
        ...(toolCallId === undefined ? {} : { toolCallId }),
        outcome: outcome.status as ConfirmationOutcome["outcome"],
        result: outcome.result,
        ...(outcome.grantId === undefined ? {} : { grantId: outcome.grantId }),
      });
      if (m === lastIndex && toolCallId !== undefined) chunks.push(...settleChunks(toolCallId, part, approvalId, toolName, outcome));
    }
  }
  // An answer for no call in this conversation, a second answer for one approval, or no answer at all decides nothing.
  for (const [approvalId, value] of explicit) if (!used.has(approvalId)) stray.push(value);
  for (const value of stray) outcomes.push({ approvalId: namedApprovalId({ from: "app", value }), outcome: "refused", result: refusedResult() });
  // `tool-output-denied` has no `ai` 5 chunk type; `ai` 5 never produces a denied part, so it never sees one.
  return { messages: copy, chunks: chunks as unknown as UIMessageChunk[], outcomes };
}

/**
 * The app's answers by the approval id they name, the first one per id; the rest are stray: not a list, not an
 * object naming an approval id, or a second answer for an id already answered. Stray answers are refused.
 */
function byApprovalId(answers: unknown): { explicit: Map<string, unknown>; stray: unknown[] } {
  const explicit = new Map<string, unknown>();
  const stray: unknown[] = [];
  if (answers === undefined) return { explicit, stray };
  if (!Array.isArray(answers)) return { explicit, stray: [answers] };
  for (const value of answers as unknown[]) {
    const id = namedApprovalId({ from: "app", value });
    if (id.length > 0 && !explicit.has(id)) explicit.set(id, value);
    else stray.push(value);
  }
  return { explicit, stray };
}

/**
 * A code of core's closed registry, as every envelope's (docs/architecture/spec/adapters.md#adapters-1-5): `FORBIDDEN`, this answer may not decide
 * this call, with a message that says nothing about why (forged id, another principal, malformed, replayed alike).
 */
function refusedResult(): AISDKToolResult {
  return { status: "error", error: toModelError(new CapabilityError({ code: "FORBIDDEN", stage: "approval", publicMessage: REFUSED_MESSAGE })) };
}

type Decided = { status: "executed" | "failed" | "rejected" | "refused" | "unanswered"; result: AISDKToolResult; reason?: string; grantId?: string };

function refusedDecision(): Decided {
  return { status: "refused", result: refusedResult() };
}

async function decideAnswer<TContext>(binding: ConfirmationBinding<TContext>, answer: ConfirmationAnswer, call: { toolName: string; input: unknown }): Promise<Decided> {
  const refused = refusedDecision();
  let record: ApprovalRecord | null;
  try {
    record = await binding.runtime.approvals.get(answer.approvalId);
  } catch {
    return refused;
  }
  if (!answerable(binding, record, call)) return refused;
  let grant: GrantRequest | undefined;
  if (answer.grant !== undefined) {
    // SI-13: the grant is the offer the server computes now, for the conversation the request came from, which must
    // be this chat's; the browser chose only to take it. No offer, or a request of another conversation: refused.
    const offer = record.conversationId !== undefined && record.conversationId === binding.conversationId ? binding.grantOffer(record.capabilityId) : undefined;
    if (offer === undefined) return refused;
    grant = { scope: offer.scope, uses: offer.uses, ttlMs: offer.ttlMs };
  }

  const decision = { status: answer.approved ? "approved" : "rejected", approver: binding.actor } as const;
  let grantId: string | undefined;
  try {
    const withComment = typeof answer.reason === "string" ? { ...decision, comment: answer.reason } : decision;
    const decided = await binding.runtime.approvals.decide(record.id, grant === undefined ? withComment : { ...withComment, grant });
    grantId = decided.grant?.id;
  } catch {
    // The runtime refused (self-approval not allowed for these types, expired, decided concurrently).
    return refused;
  }
  if (!answer.approved) {
    const rejected: Decided = { status: "rejected", result: { status: "error", error: { code: "APPROVAL_REJECTED", message: REJECTED_MESSAGE, retryable: false } } };
    if (typeof answer.reason === "string") rejected.reason = answer.reason;
    return rejected;
  }
  try {
    const options = { context: binding.context, expectedActor: binding.actor, expectedSurface: "aiSdk" as const, ...(binding.signal ? { signal: binding.signal } : {}) };
    const result = await binding.runtime.resume(record.id, options);
    // Executed means the call completed; a resume that refused or failed says so, with its envelope.
    const done: Decided = { status: result.status === "completed" ? "executed" : "failed", result: toToolResult(result) };
    if (grantId !== undefined) done.grantId = grantId;
    return done;
  } catch {
    return { status: "failed", result: concealedResult() };
  }
}

/**
 * The adapter's own checks, all before deciding; the runtime checks again on decide (self-approval per type) and on
 * resume (R1..R12). The principal check is resume's own guard (R2), so an answer that passes here is never one that
 * resume refuses after the record was decided.
 */
function answerable<TContext>(binding: ConfirmationBinding<TContext>, record: ApprovalRecord | null, call: { toolName: string; input: unknown }): record is ApprovalRecord {
  if (record === null || typeof record !== "object") return false;
  if (record.status !== "pending") return false; // replayed, decided elsewhere, expired
  if (!matchesRequester(binding.actor, record.actor) || record.surface !== "aiSdk") return false;
  if (binding.toolNameOf(record.capabilityId) !== call.toolName) return false;
  // SI-4: a record demanding any other type (a manager's) is never decided from the chat.
  if (!Array.isArray(record.types) || record.types.length === 0 || !record.types.every((type) => binding.confirmable.has(type))) return false;
  // SI-5: the answer is for the call shown, with exactly the input the record binds.
  return bindsInput(record, call.input);
}

/**
 * Whether the record's `inputHash` binds the input the part shows. The part shows what the model submitted; the
 * record keeps that as `submittedInput` (ADR-020), and resume validates it again and requires the approved hash,
 * so equal submitted input means the hash-bound call. A record without it (a custom coordinator) binds the
 * validated `input` only: the part must show exactly that, which refuses a call whose schema transformed it.
 */
function bindsInput(record: ApprovalRecord, shown: unknown): boolean {
  if (Object.hasOwn(record, "submittedInput") && record.submittedInput !== undefined) return sameJson(record.submittedInput, shown);
  return sameJson(record.input, shown);
}

function isToolPart(part: Part): boolean {
  return typeof part === "object" && part !== null && typeof part.type === "string" && (part.type.startsWith("tool-") || part.type === "dynamic-tool");
}

/** The answer a part carries: its own `approval` (`ai` 6, 7), or the app's answer naming its envelope's approval (`ai` 5). */
function answerOf(part: Part, explicit: ReadonlyMap<string, unknown>): ReceivedAnswer | undefined {
  if (part.state === "approval-responded") return { from: "part", value: part.approval };
  const output = part.output as { status?: unknown; approvalId?: unknown } | undefined;
  if (part.state === "output-available" && output?.status === "approval-required" && typeof output.approvalId === "string" && explicit.has(output.approvalId)) {
    return { from: "app", value: explicit.get(output.approvalId) };
  }
  return undefined;
}

function pendingEnvelope(part: Part): AISDKToolResult {
  const descriptor = (part.approval as { descriptor?: unknown } | undefined)?.descriptor as Partial<Extract<AISDKToolResult, { status: "approval-required" }>> | undefined;
  const id = part.approval?.id;
  if (descriptor?.status === "approval-required" && descriptor.approvalId === id && typeof descriptor.message === "string") {
    return { status: "approval-required", approvalId: String(id), message: descriptor.message };
  }
  return concealedResult();
}

/** The part's settled state: what the browser and the next model call see. */
function settle(part: Part, outcome: Decided): void {
  delete part.errorText;
  if (outcome.status === "rejected" && part.state === "approval-responded") {
    part.state = "output-denied";
    part.approval = { ...part.approval, approved: false };
    delete part.output;
    return;
  }
  if (outcome.result.status === "error") {
    part.state = "output-error";
    part.errorText = outcome.result.error.message;
    delete part.output;
  } else {
    part.state = "output-available";
    part.output = outcome.result;
  }
  // A settled part carries no approval answer the SDK could act on.
  if (part.approval !== undefined && outcome.status !== "rejected") delete part.approval;
}

function settleChunks(toolCallId: string, part: Part, approvalId: string, toolName: string, outcome: Decided): object[] {
  // A card is keyed by an approval id; an answer that named none updates the part only.
  const cards: GovernedApprovalChunk[] =
    approvalId.length === 0
      ? []
      : [
          outcome.status === "refused"
            ? approvalChunk({ approvalId, toolCallId, toolName, state: "refused", message: REFUSED_MESSAGE })
            : approvalChunk(outcomeData(approvalId, outcome.result, { toolCallId, toolName })),
        ];
  if (part.state === "output-denied") return [{ type: "tool-output-denied", toolCallId }, ...cards];
  if (part.state === "output-error") return [{ type: "tool-output-error", toolCallId, errorText: part.errorText }, ...cards];
  return [{ type: "tool-output-available", toolCallId, output: part.output }, ...cards];
}

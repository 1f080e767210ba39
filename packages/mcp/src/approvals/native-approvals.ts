import { inputRequired, UrlElicitationRequiredError, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { canonicalInputHash, CapabilityError, type ExecutionResult } from "@orpc-agent/core";
import { callTool, type ToolCall } from "../catalog/call-tool.js";
import { toCallToolResult } from "../catalog/call-tool-result.js";
import { CONCEALED_ENVELOPE, serializeError, toEnvelope, type MCPEnvelope } from "../catalog/envelope.js";
import type { MCPIdentity } from "../catalog/governance-options.js";
import { conversationOf } from "../catalog/identity-checks.js";
import type { PreparedMCPServer } from "../catalog/prepare.js";
import { principalKey } from "../catalog/principal-key.js";
import type { ApprovalElicitation, ApprovalEnvelope } from "./elicitation-config.js";
import { openState, sealState, type ApprovalState } from "./request-state.js";

/** The prepared configuration, with URL elicitation of approvals when configured. */
type PreparedWithElicitation<TContext> = PreparedMCPServer<TContext> & { elicitation: ApprovalElicitation | undefined };

/** What the request says about the client: its revision, whether it declared URL elicitation, what it echoed. */
export type ElicitationRequest = {
  era: "modern" | "legacy";
  urlCapable: boolean;
  /** The echoed 2026-07-28 `requestState`, as received. */
  requestState: string | undefined;
  /** The user declined or cancelled our URL elicitation (2026-07-28 `inputResponses`); never a decision (SI-4). */
  declined: boolean;
  /** 2025-era connections that outlive the call: announce the approval's decision with `notifications/elicitation/complete`. */
  watchCompletion?: (approvalId: string) => void;
};

/** The key of our one embedded request in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = "approval";

type Outcome =
  | { kind: "envelope"; envelope: MCPEnvelope }
  | { kind: "input-required"; state: string; url: string; message: string }
  | { kind: "url-required"; pending: { approvalId: string; url: string; message: string } };

/**
 * `tools/call` on the v2 path. With URL elicitation configured, an approval the client can open natively is answered
 * in its revision's shape (2026-07-28 `input_required` + `requestState`; 2025-11-25 `-32042`), and the retry resumes
 * through `runtime.resume`, bound to the caller and surface `mcp`. Everything else is `callTool`, unchanged.
 */
export async function callToolNatively<TContext>(
  prepared: PreparedWithElicitation<TContext>,
  identity: MCPIdentity<TContext>,
  call: ToolCall,
  request: ElicitationRequest,
): Promise<CallToolResult | InputRequiredResult> {
  const elicitation = prepared.elicitation;
  const target = prepared.catalog.resolve(call.name);
  // A retry's state binds a capability addressed by its wire name: with a raw registry id it fails the binding like
  // an unknown name does. Answering it the catalog's way would tell existing ids, hidden ones too, from unknown (SI-8).
  if (elicitation !== undefined && target.kind === "concealed" && request.era === "modern" && request.requestState !== undefined) {
    return toCallToolResult(CONCEALED_ENVELOPE) as CallToolResult;
  }
  const native = elicitation !== undefined && target.kind === "invoke" && (request.urlCapable || request.requestState !== undefined);
  if (!native) return (await callTool(prepared.runtime, prepared.catalog, prepared.guidance, identity, call)) as CallToolResult;

  let outcome: Outcome;
  try {
    outcome = await governed(prepared, elicitation, identity, target.id, call, request);
  } catch {
    outcome = { kind: "envelope", envelope: CONCEALED_ENVELOPE };
  }
  switch (outcome.kind) {
    case "envelope":
      return toCallToolResult(outcome.envelope) as CallToolResult;
    case "input-required":
      return inputRequired({
        inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicitUrl({ message: outcome.message, url: outcome.url }) },
        requestState: outcome.state,
      });
    case "url-required":
      request.watchCompletion?.(outcome.pending.approvalId);
      // Thrown on purpose: on 2025-era requests the SDK sends it as the -32042 JSON-RPC error, byte for byte.
      throw new UrlElicitationRequiredError(
        [{ mode: "url", message: outcome.pending.message, url: outcome.pending.url, elicitationId: outcome.pending.approvalId }],
        outcome.pending.message,
      );
  }
}

async function governed<TContext>(
  prepared: PreparedMCPServer<TContext>,
  elicitation: ApprovalElicitation,
  identity: MCPIdentity<TContext>,
  capabilityId: string,
  call: ToolCall,
  request: ElicitationRequest,
): Promise<Outcome> {
  const args = call.arguments ?? {};
  const principal = principalKey(identity.actor);
  if (request.era === "modern" && request.requestState !== undefined) {
    return retryWithState(prepared, elicitation, identity, capabilityId, call, request, principal);
  }
  const inputHash = await canonicalInputHash(args);
  // The call, within its principal's share of the remembered retries.
  const legacyKey = inputHash === undefined ? undefined : JSON.stringify([capabilityId, inputHash]);
  if (request.era === "legacy" && legacyKey !== undefined) {
    const pending = await elicitation.state.getPending(principal, legacyKey, Date.now());
    // The store is outside the call: an entry naming an approval of another call (a row edited in a shared store)
    // covers nothing, and this call asks for an approval of its own (SI-3).
    if (pending !== undefined && (await approvesThisCall(prepared, pending.approvalId, capabilityId, inputHash!))) {
      const outcome = await resumeApproval(prepared, identity, pending.approvalId, call, () => ({ kind: "url-required", pending }));
      // Forgetting is best effort: an entry left behind resumes a consumed approval next time, which answers like
      // an unknown one, never a second run; the outcome the caller waits for is not lost to it.
      if (outcome.kind !== "url-required") await elicitation.state.deletePending(principal, legacyKey).catch(() => undefined);
      return outcome;
    }
  }

  const { runtime, guidance } = prepared;
  const result = await runtime.invoke(capabilityId, args, { actor: identity.actor, context: identity.context, ...conversationOf(identity), surface: "mcp", signal: call.signal, ...call.progress });
  const envelope = toEnvelope(result, guidance);
  if (result.status !== "approval-required" || envelope.status !== "approval-required" || envelope.url === undefined) return { kind: "envelope", envelope };
  if (!request.urlCapable || inputHash === undefined || legacyKey === undefined) return { kind: "envelope", envelope };
  const message = elicitationMessage(result);
  if (request.era === "legacy") {
    const pending = { approvalId: result.approval.id, url: envelope.url, message, expiresAt: pendingExpiry(result.approval.expiresAt) };
    // Unremembered, a -32042 retry would request a second approval: answer with the envelope instead (its link and
    // resume tool still lead to this approval).
    const remembered = await elicitation.state.setPending(principal, legacyKey, pending).then(
      () => true,
      () => false,
    );
    return remembered ? { kind: "url-required", pending } : { kind: "envelope", envelope };
  }
  const state: ApprovalState = {
    approvalId: result.approval.id,
    principal,
    capabilityId,
    inputHash,
    expiresAt: new Date(result.approval.expiresAt).getTime(),
    url: envelope.url,
    message,
    envelope,
  };
  return { kind: "input-required", state: await sealState(elicitation.mac, state), url: envelope.url, message };
}

/**
 * A 2026-07-28 retry. Integrity, principal, capability and input are checked before anything else; a state failing
 * any of them answers exactly like an unknown approval (SI-8), and the runtime is not asked.
 */
async function retryWithState<TContext>(
  prepared: PreparedMCPServer<TContext>,
  elicitation: ApprovalElicitation,
  identity: MCPIdentity<TContext>,
  capabilityId: string,
  call: ToolCall,
  request: ElicitationRequest,
  principal: string,
): Promise<Outcome> {
  const state = await openState(elicitation.mac, request.requestState);
  const bound =
    state !== undefined &&
    state.principal === principal &&
    state.capabilityId === capabilityId &&
    state.inputHash === (await canonicalInputHash(call.arguments ?? {}));
  if (!bound) return { kind: "envelope", envelope: CONCEALED_ENVELOPE };
  // Fail closed on a non-finite expiry or clock (docs/architecture/spec/amendments-2026-12.md#amendments-core-7-r3).
  const now = Date.now();
  if (!Number.isFinite(state.expiresAt) || !Number.isFinite(now) || state.expiresAt <= now) {
    return { kind: "envelope", envelope: { status: "error", error: serializeError(new CapabilityError({ code: "APPROVAL_EXPIRED" })) } };
  }
  return resumeApproval(prepared, identity, state.approvalId, call, () => {
    if (request.declined || !request.urlCapable) return { kind: "envelope", envelope: state.envelope satisfies ApprovalEnvelope };
    return { kind: "input-required", state: request.requestState!, url: state.url, message: state.message };
  });
}

/**
 * Whether a remembered approval was requested by this very call: its capability, and the input the caller submitted
 * (hashed as the retry's arguments are). An unknown id is left to `resume`, which answers it like any unknown one.
 */
async function approvesThisCall<TContext>(prepared: PreparedMCPServer<TContext>, approvalId: string, capabilityId: string, inputHash: string): Promise<boolean> {
  const record = await prepared.runtime.approvals.get(approvalId);
  if (record === null || record === undefined) return true;
  const submitted = Object.hasOwn(record, "submittedInput") ? record.submittedInput : record.input;
  return record.capabilityId === capabilityId && (await canonicalInputHash(submitted)) === inputHash;
}

/**
 * Resumes as the caller, bound to the caller and surface `mcp` (never a decision, SI-4). Pending asks again; a
 * consumed approval on this path is a replayed retry and answers like an unknown approval (SI-8).
 */
async function resumeApproval<TContext>(
  prepared: PreparedMCPServer<TContext>,
  { actor, context }: MCPIdentity<TContext>,
  approvalId: string,
  call: ToolCall,
  onPending: () => Outcome,
): Promise<Outcome> {
  const result: ExecutionResult = await prepared.runtime.resume(approvalId, {
    context,
    expectedActor: actor,
    expectedSurface: "mcp",
    signal: call.signal,
    ...call.progress,
  });
  if (result.status === "failed" && result.error.code === "APPROVAL_PENDING") return onPending();
  if (result.status === "failed" && result.error.code === "APPROVAL_CONSUMED") return { kind: "envelope", envelope: CONCEALED_ENVELOPE };
  return { kind: "envelope", envelope: toEnvelope(result, prepared.guidance) };
}

/**
 * How long a 2025-11-25 retry is remembered: past the approval's own expiry by {@link PENDING_RETENTION_MS}, so a
 * retry after it still answers `APPROVAL_EXPIRED` rather than requesting a new approval.
 */
function pendingExpiry(approvalExpiresAt: Date | string): number {
  const expiresAt = new Date(approvalExpiresAt).getTime();
  return (Number.isFinite(expiresAt) ? expiresAt : Date.now()) + PENDING_RETENTION_MS;
}

const PENDING_RETENTION_MS = 3_600_000;

/** What the user's client shows beside the link: the reasons, and that a person decides there, not the client. */
function elicitationMessage(result: Extract<ExecutionResult, { status: "approval-required" }>): string {
  const awaiting = toEnvelope(result, {});
  const reasons = awaiting.status === "approval-required" ? awaiting.message : "Awaiting approval.";
  return `${reasons} Open the link to follow the request: an authorized person reviews and decides it there, and the call continues once it is approved.`;
}

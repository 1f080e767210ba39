import { frozenCopy } from "../../internal/deep-freeze.js";
import { isWriteLike, type Actor, type RiskLevel, type SideEffect } from "../../vocabulary/types.js";
import { isExpired } from "../expiry.js";
import { approvalProgress, quorumOf } from "../quorum.js";
import { refusesSelfApproval, requesterConfirmableTypes } from "../self-approval.js";
import type { ApprovalRecord } from "../types.js";
import { redactedApprovalInput } from "./redacted-input.js";
import type {
  ApprovalDeciders,
  ApprovalView,
  ApprovalViewActor,
  ApprovalViewAgent,
  ApprovalViewCapability,
  ApprovalViewDecision,
  ApprovalViewVote,
  DescribeApprovalOptions,
} from "./types.js";

/**
 * One approval as every channel shows it (page, Slack, email, chat card): title and description, risk and side
 * effect with flags for destructive and high-risk writes, requester and acting agent, asked-at and expires-in, the
 * input through the capability's `redact.approvalInput` with labels from its input schema, quorum progress with the
 * voters, the decision, and who may decide (`decidableBy`, read with `mayDecide`). Pure and deep-frozen; it never
 * holds the stored input, only the redacted copy, and only when `capability` is the registry entry (a descriptor
 * from `runtime.describe` carries no redaction hook, so its view withholds the input).
 *
 * @example
 * import { describeApproval, type AgentRuntime } from "@orpc-agent/core";
 * declare const runtime: AgentRuntime;
 * for (const record of (await runtime.approvals.list?.({ status: "pending" })) ?? []) {
 *   const view = describeApproval(record, runtime.registry.get(record.capabilityId), { now: new Date() });
 *   console.log(view.title, view.progress.label, view.input.shown ? view.input.fields : "input withheld");
 * }
 */
export function describeApproval(record: ApprovalRecord, capability: ApprovalViewCapability | undefined, options: DescribeApprovalOptions): ApprovalView {
  const now = options?.now;
  if (!(now instanceof Date) || !Number.isFinite(now.getTime())) throw new TypeError("describeApproval: options.now must be a valid Date.");
  const expired = isExpired(record.expiresAt, now);
  const status = record.status === "pending" && expired ? "expired" : record.status;
  const risk: RiskLevel = record.risk;
  const sideEffect: SideEffect = record.sideEffect;
  const agent = actingAgentOf(record.actor);
  const view: ApprovalView = {
    id: record.id,
    capabilityId: record.capabilityId,
    title: titleOf(capability) ?? record.capabilityId,
    description: descriptionOf(capability),
    surface: record.surface,
    reasons: stringsOf(record.reasons),
    types: stringsOf(record.types),
    risk,
    sideEffect,
    destructive: sideEffect === "destructive",
    highRiskWrite: isWriteLike(sideEffect) && (risk === "high" || risk === "critical"),
    requester: actorView(record.actor),
    ...(agent === undefined ? {} : { actingAgent: agent }),
    requestedAt: dateCopy(record.requestedAt),
    expiresAt: dateCopy(record.expiresAt),
    expiresInMs: expired ? 0 : Math.max(0, (record.expiresAt as Date).getTime() - now.getTime()),
    status,
    ...(record.decision === undefined ? {} : { decision: decisionView(record.decision, capability) }),
    progress: Object.freeze(approvalProgress(record)),
    voters: Object.freeze(votersOf(record)),
    input: redactedApprovalInput(record.input, capability),
    decidableBy: deciders(record, status === "pending", options.selfApproval),
  };
  return Object.freeze(view);
}

/** A copy, so a channel that sets a date's time changes nothing else; what is no Date becomes an invalid one. */
function dateCopy(value: unknown): Date {
  return new Date(value instanceof Date ? value.getTime() : Number.NaN);
}

function titleOf(capability: ApprovalViewCapability | undefined): string | undefined {
  const title = capability?.meta?.adapters?.mcp?.annotations?.title;
  return typeof title === "string" && title.length > 0 ? title : undefined;
}

function descriptionOf(capability: ApprovalViewCapability | undefined): string {
  const text = capability?.meta?.description ?? capability?.description;
  return typeof text === "string" ? text : "";
}

function stringsOf(list: unknown): readonly string[] {
  return Object.freeze(Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []);
}

/** Id, kind and display name only: the app's `attributes` never reach a channel. */
function actorView(actor: Actor): ApprovalViewActor {
  const view: ApprovalViewActor = {
    id: actor.id,
    kind: actor.kind,
    ...(typeof actor.displayName === "string" ? { displayName: actor.displayName } : {}),
  };
  return Object.freeze(view);
}

function actingAgentOf(actor: Actor): ApprovalViewAgent | undefined {
  const via = actor.via;
  if (typeof via !== "object" || via === null || typeof via.id !== "string" || via.id.length === 0) return undefined;
  return Object.freeze({ id: via.id, ...(typeof via.displayName === "string" ? { displayName: via.displayName } : {}) });
}

function decisionView(decision: NonNullable<ApprovalRecord["decision"]>, capability: ApprovalViewCapability | undefined): ApprovalViewDecision {
  return Object.freeze({
    status: decision.status,
    approver: actorView(decision.approver),
    ...(typeof decision.comment === "string" ? { comment: decision.comment } : {}),
    decidedAt: dateCopy(decision.decidedAt),
    // An edit is shown only as approvers may see inputs: through the same hook, never as stored.
    ...(decision.input === undefined ? {} : { editedInput: redactedApprovalInput(decision.input, capability) }),
  });
}

/** A quorum record's counted approvals; a single-approver record's approving decision. */
function votersOf(record: ApprovalRecord): ApprovalViewVote[] {
  if (Array.isArray(record.approvals)) return record.approvals.map((vote) => voteView(vote.approver, vote.at, vote.comment));
  const decision = record.decision;
  return decision?.status === "approved" ? [voteView(decision.approver, decision.decidedAt, decision.comment)] : [];
}

function voteView(approver: Actor, at: Date, comment: string | undefined): ApprovalViewVote {
  return Object.freeze({ approver: actorView(approver), at: dateCopy(at), ...(typeof comment === "string" ? { comment } : {}) });
}

function deciders(record: ApprovalRecord, open: boolean, selfApproval: DescribeApprovalOptions["selfApproval"]): ApprovalDeciders {
  const rejectSelfApproval = selfApproval?.rejectSelfApproval !== false;
  const rule = { rejectSelfApproval, requesterConfirmable: requesterConfirmableTypes(selfApproval?.requesterConfirmable) };
  const quorum = quorumOf(record);
  const agentId = actingAgentOf(record.actor)?.id;
  return frozenCopy({
    open,
    requester: { id: record.actor.id, ...(agentId === undefined ? {} : { agentId }) },
    requesterMayDecide: !refusesSelfApproval(rule, record.types, quorum),
    // As `refusesActingAgent`: the relay rule holds on every quorum record, otherwise unless self-approval is allowed.
    refusesRelays: quorum > 1 || rejectSelfApproval,
    counted: votersOf(record).map((vote) => vote.approver.id),
  });
}

// What the Approvals panel shows of one request: core's approval view (`describeApproval`, the same facts a Slack
// message or an email shows), with the names and phrases this app prints, and whether the signed-in person is offered
// the buttons (`mayDecide`, plus the app's own rule: the board's owner decides).
import { describeApproval, mayDecide, type Actor, type ApprovalRecord, type ApprovalView, type ApprovalViewCapability } from "@orpc-agent/core";
import { nameOf } from "../agent/people.js";

export type ApprovalCard = {
  id: string;
  title: string;
  description: string;
  status: ApprovalView["status"];
  /** "write · medium risk", with the markers a channel must not hide. */
  risk: { label: string; destructive: boolean; highRisk: boolean };
  requester: { id: string; name: string };
  actingAgent: string | null;
  reasons: string[];
  askedAt: string;
  /** "expires in 23 h 59 min", or "expired"; only while pending. */
  expiresIn: string | null;
  /** The input as approvers may see it (`redact.approvalInput`), labelled from the input schema. */
  fields: { key: string; label: string; value: string }[] | null;
  /** "0 of 1 approval", and who approved so far. */
  progress: string;
  voters: string[];
  /** Who may decide while it is pending: the board's owner. Never who decided (that is `decision`). */
  decider: { id: string; name: string } | null;
  decision: { status: "approved" | "rejected"; by: string; comment: string | null; at: string } | null;
  /** Whether the signed-in person is offered Approve / Reject; `decide` checks everything again. */
  canDecide: boolean;
};

/** The card of `record` for the signed-in `viewer`, at `now`; `deciderId` is the board owner the app asks. */
export function approvalCard(record: ApprovalRecord, capability: ApprovalViewCapability | undefined, viewer: Actor, deciderId: string | null, now: Date): ApprovalCard {
  const view = describeApproval(record, capability, { now });
  // The app's own names first: a view carries only the display name the request was filed with.
  const person = (actor: { id: string; displayName?: string }) => (nameOf(actor.id) !== actor.id ? nameOf(actor.id) : (actor.displayName ?? actor.id));
  return {
    id: view.id,
    title: view.title,
    description: view.description,
    status: view.status,
    risk: { label: `${view.sideEffect} · ${view.risk} risk`, destructive: view.destructive, highRisk: view.highRiskWrite },
    requester: { id: view.requester.id, name: person(view.requester) },
    actingAgent: view.actingAgent ? (view.actingAgent.displayName ?? view.actingAgent.id) : null,
    reasons: [...view.reasons],
    askedAt: agoText(now.getTime() - view.requestedAt.getTime()),
    expiresIn: view.status === "pending" ? `expires in ${durationText(view.expiresInMs)}` : view.status === "expired" ? "expired" : null,
    fields: view.input.shown ? view.input.fields.map((field) => ({ key: field.key, label: field.label, value: typeof field.value === "string" ? field.value : JSON.stringify(field.value) })) : null,
    progress: view.progress.label,
    voters: view.voters.map((vote) => person(vote.approver)),
    decider: deciderId ? { id: deciderId, name: nameOf(deciderId) } : null,
    decision: view.decision
      ? { status: view.decision.status, by: person(view.decision.approver), comment: view.decision.comment ?? null, at: view.decision.decidedAt.toISOString() }
      : null,
    canDecide: deciderId === viewer.id && mayDecide(view, viewer, "approve"),
  };
}

/** "just now", "5 min ago", "2 h ago". */
function agoText(ms: number): string {
  return ms < 60_000 ? "just now" : `${durationText(ms)} ago`;
}

/** "45 s", "5 min", "23 h 59 min", "3 d 4 h". */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

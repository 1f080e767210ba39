import type { ApprovalNotificationType, ApprovalView, ApprovalViewActor, ApprovalViewAgent, ApprovalViewInput } from "@orpc-agent/core";
import type { DecisionLinks } from "./approval-view.js";

// The words every channel shares, so the Slack message and the email say the same thing.

/** "Dana (user_dana)", or the id alone. */
export function actorName(actor: ApprovalViewActor | ApprovalViewAgent): string {
  return typeof actor.displayName === "string" && actor.displayName.length > 0 ? `${actor.displayName} (${actor.id})` : actor.id;
}

/** "2 hours 5 minutes", "45 seconds", "expired". */
export function expiresIn(ms: number): string {
  if (!(ms > 0)) return "expired";
  const units: [string, number][] = [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
    ["second", 1_000],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n} ${name}${n === 1 ? "" : "s"}`);
    if (n > 0) rest -= n * size;
    if (parts.length === 2) break;
  }
  return parts.length === 0 ? "less than a second" : parts.join(" ");
}

/** "high risk, destructive" with what makes the call dangerous said first. */
export function riskLine(view: ApprovalView): string {
  const flags = view.destructive ? "destructive" : view.highRiskWrite ? `${view.sideEffect}, high-risk write` : view.sideEffect;
  return `${view.risk} risk, ${flags}`;
}

/** A value of the redacted input as one line of text. */
export function fieldValue(value: unknown): string {
  if (typeof value === "string") return value;
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}

/** The headline: what happened, from the notification kind when given, else the view's status. */
export function headline(view: ApprovalView, kind?: ApprovalNotificationType): string {
  if (kind === "approval.expiring") return `Approval expiring in ${expiresIn(view.expiresInMs)}: ${view.title}`;
  if (kind === "approval.escalated") return `Approval escalated: ${view.title}`;
  if (view.status === "approved" && view.decision?.editedInput !== undefined) return `Approved with changes: ${view.title}`;
  if (view.status === "approved") return `Approved: ${view.title}`;
  if (view.status === "rejected") return `Rejected: ${view.title}`;
  if (view.status === "expired") return `Approval expired: ${view.title}`;
  if (view.status !== "pending") return `Approval ${view.status}: ${view.title}`;
  return `Approval needed: ${view.title}`;
}

/** Voters so far, for quorum progress: "1 of 2 approvals (Ben (user_ben))". */
export function progressLine(view: ApprovalView): string {
  const voters = view.voters.map((vote) => actorName(vote.approver));
  return voters.length === 0 ? view.progress.label : `${view.progress.label} (${voters.join(", ")})`;
}

/** The labelled fields of an input the view shows, as [label, one-line value]; none when withheld. */
export function inputRows(input: ApprovalViewInput): [string, string][] {
  return input.shown ? input.fields.map((field) => [field.label, fieldValue(field.value)]) : [];
}

/** Withheld input, said plainly. */
export function withheldLine(reason: string): string {
  return `Input withheld (${reason}): open the approval in the app to review it.`;
}

/** Links shown as buttons: only while pending, only those given, only http(s). */
export function openLinks(view: ApprovalView, links: DecisionLinks | undefined): DecisionLinks {
  if (view.status !== "pending" || links === undefined) return {};
  const out: DecisionLinks = {};
  if (isHttpUrl(links.approve)) out.approve = links.approve;
  if (isHttpUrl(links.reject)) out.reject = links.reject;
  return out;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

// One approval as the approvals page shows it: core's approval view (`describeApproval`), the same facts the Slack
// message and the email carry. The page adds only names and the decision controls it passes in.
import type { ApprovalView, ApprovalViewInput } from "@orpc-agent/core";
import { escapeHtml } from "./html.js";

export type CardOptions = {
  /** The signed-in person's id: their own request says "(you)". */
  as?: string;
  /** The app's names for people; the view's display name otherwise. */
  nameOf: (actor: { id: string; displayName?: string }) => string;
  /** The decision form, or a line saying why there is none. */
  controls: string;
  /** The moment the view was described at. */
  now: Date;
};

export function approvalCardHtml(view: ApprovalView, options: CardOptions): string {
  const { nameOf } = options;
  const marker = view.destructive
    ? `<strong class="marker destructive" data-marker="destructive">Destructive</strong> `
    : view.highRiskWrite
      ? `<strong class="marker high-risk" data-marker="high-risk">High-risk write</strong> `
      : "";
  const agent = view.actingAgent ? ` via ${escapeHtml(view.actingAgent.displayName ?? view.actingAgent.id)}` : "";
  const voters = view.voters.map((vote) => nameOf(vote.approver));
  const decision = view.decision
    ? `<p class="decision" data-decision="${view.decision.status}">Decided by ${escapeHtml(nameOf(view.decision.approver))}: ${view.decision.status}${
        view.decision.comment ? ` <q class="comment">${escapeHtml(view.decision.comment)}</q>` : ""
      }</p>`
    : "";
  return `<div class="card" data-approval="${escapeHtml(view.id)}" data-status="${view.status}">
      <h3>${escapeHtml(view.title)} <span class="muted">requested by ${escapeHtml(nameOf(view.requester))}${view.requester.id === options.as ? " (you)" : ""}${agent}</span></h3>
      <p class="risk">${marker}${escapeHtml(view.sideEffect)} · ${escapeHtml(view.risk)} risk</p>
      ${view.description ? `<p class="description">${escapeHtml(view.description)}</p>` : ""}
      <p class="reasons">${view.reasons.map(escapeHtml).join("<br>")}</p>
      <p class="muted when">asked ${escapeHtml(ago(view, options.now))}${view.status === "pending" ? ` · expires in ${escapeHtml(duration(view.expiresInMs))}` : ` · ${escapeHtml(view.status)}`}</p>
      ${inputHtml(view.input)}
      <p class="progress" data-progress="${escapeHtml(view.id)}">${escapeHtml(view.progress.label)}${voters.length > 0 ? ` · approved by ${escapeHtml(voters.join(", "))}` : ""}</p>
      ${decision}${options.controls}</div>`;
}

/** The redacted input, one labelled row per field (labels from the input schema). */
function inputHtml(input: ApprovalViewInput): string {
  if (!input.shown) return `<p class="muted fields">The input is withheld from approvers.</p>`;
  const rows = input.fields.map(
    (field) =>
      `<div data-field="${escapeHtml(field.key)}"><dt${field.description ? ` title="${escapeHtml(field.description)}"` : ""}>${escapeHtml(field.label)}</dt><dd>${escapeHtml(
        typeof field.value === "string" ? field.value : JSON.stringify(field.value),
      )}</dd></div>`,
  );
  return `<dl class="fields">${rows.join("")}</dl>`;
}

function ago(view: ApprovalView, now: Date): string {
  const ms = now.getTime() - view.requestedAt.getTime();
  return ms < 60_000 ? "just now" : `${duration(ms)} ago`;
}

/** "45 s", "5 min", "23 h 59 min", "3 d 4 h". */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

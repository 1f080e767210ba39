import type { ApprovalNotificationType, ApprovalView, ApprovalViewInput } from "@orpc-agent/core";
import type { DecisionLinks } from "../view/approval-view.js";
import { actorName, expiresIn, headline, inputRows, openLinks, progressLine, riskLine, withheldLine } from "../view/describe-for-humans.js";
import { escapeHtml } from "./escape-html.js";

/** An approval email: both bodies say the same; hand it to any mail transport. */
export type ApprovalEmail = { subject: string; text: string; html: string };

export type ApprovalEmailOptions = {
  /** URLs that decide (minted with `runtime.approvals.decisionLink`); a button only for each one given, while pending. */
  links?: DecisionLinks;
  /** The notification being sent, for the subject (`approval.expiring` says so). */
  kind?: ApprovalNotificationType;
};

/**
 * An approval as an email: subject, plain text and HTML with the same facts as the Slack message (capability,
 * requester, acting agent, risk, expires in), the redacted input as labelled fields (and the approved input, when
 * approved with changes), quorum progress and the decision
 * links. Everything from the view is HTML-escaped, so a hostile title or input renders as text; the subject is one
 * line whatever the title holds.
 *
 * @example
 * import { approvalEmail } from "@orpc-agent/notify";
 * import { describeApproval, type AgentRuntime } from "@orpc-agent/core";
 * declare const runtime: AgentRuntime, record: Parameters<typeof describeApproval>[0];
 * const view = describeApproval(record, runtime.registry.get(record.capabilityId), { now: new Date() });
 * const { subject, text, html } = approvalEmail(view, { links: { approve: "https://app.example/a/…" } });
 */
export function approvalEmail(view: ApprovalView, options: ApprovalEmailOptions = {}): ApprovalEmail {
  const title = headline(view, options.kind);
  const facts: [string, string][] = [
    ["Capability", view.capabilityId],
    ["Requester", actorName(view.requester)],
    ["Acting agent", view.actingAgent === undefined ? "none" : actorName(view.actingAgent)],
    ["Risk", riskLine(view)],
    ["Expires in", expiresIn(view.expiresInMs)],
    ["Approvals", progressLine(view)],
  ];
  if (view.decision !== undefined) facts.push(["Decision", `${view.decision.status} by ${actorName(view.decision.approver)}`]);
  const inputs = inputRows(view.input);
  const edited = view.decision?.editedInput;
  const links = openLinks(view, options.links);
  const warning = view.destructive ? "This call is destructive: approving it cannot be undone." : undefined;

  const text = [
    title,
    "",
    ...(view.description.length > 0 ? [view.description, ""] : []),
    ...view.reasons.map((reason) => `- ${reason}`),
    ...(view.reasons.length > 0 ? [""] : []),
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    ...(view.input.shown ? ["Input:", ...inputs.map(([label, value]) => `  ${label}: ${value}`)] : [withheldLine(view.input.reason)]),
    ...(edited === undefined ? [] : ["", ...(edited.shown ? ["Approved input:", ...inputRows(edited).map(([label, value]) => `  ${label}: ${value}`)] : [withheldLine(edited.reason)])]),
    ...(warning === undefined ? [] : ["", warning]),
    ...(links.approve === undefined && links.reject === undefined ? [] : [""]),
    ...(links.approve === undefined ? [] : [`Approve: ${links.approve}`]),
    ...(links.reject === undefined ? [] : [`Reject: ${links.reject}`]),
  ].join("\n");

  const row = ([label, value]: [string, string]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const inputHtml = (heading: string, input: ApprovalViewInput) =>
    input.shown ? `<h2 style="font-size:15px">${heading}</h2><table>${inputRows(input).map(row).join("")}</table>` : `<p><em>${escapeHtml(withheldLine(input.reason))}</em></p>`;
  const button = (href: string, label: string, color: string) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;padding:8px 16px;margin-right:8px;border-radius:4px;color:#fff;background:${color};text-decoration:none">${label}</a>`;
  const html = [
    `<!doctype html><html><body style="font-family:sans-serif">`,
    `<h1 style="font-size:18px">${escapeHtml(title)}</h1>`,
    view.description.length > 0 ? `<p>${escapeHtml(view.description)}</p>` : "",
    view.reasons.length > 0 ? `<ul>${view.reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul>` : "",
    `<table>${facts.map(row).join("")}</table>`,
    inputHtml("Input", view.input),
    edited === undefined ? "" : inputHtml("Approved input", edited),
    warning === undefined ? "" : `<p><strong>${escapeHtml(warning)}</strong></p>`,
    links.approve === undefined && links.reject === undefined
      ? ""
      : `<p>${links.approve === undefined ? "" : button(links.approve, "Approve", "#2e7d32")}${links.reject === undefined ? "" : button(links.reject, "Reject", "#c62828")}</p>`,
    `</body></html>`,
  ].join("");

  // One line: a title with a line break must not start a header of its own.
  const subject = title.replace(/[\r\n\t]+/g, " ").slice(0, 200);
  return { subject, text, html };
}

import type { ActionsBlock, Button, ContextBlock, HeaderBlock, KnownBlock, MrkdwnElement, SectionBlock } from "@slack/types";
import type { ApprovalNotificationType, ApprovalView, ApprovalViewInput } from "@orpc-agent/core";
import type { DecisionLinks } from "../view/approval-view.js";
import { actorName, expiresIn, headline, inputRows, openLinks, progressLine, riskLine, withheldLine } from "../view/describe-for-humans.js";

/** A Slack message: `text` is the notification and fallback text, `blocks` the Block Kit layout. */
export type SlackMessage = { text: string; blocks: KnownBlock[] };

export type SlackMessageOptions = {
  /** URLs that decide (minted with `runtime.approvals.decisionLink`); a button only for each one given, while pending. */
  links?: DecisionLinks;
  /** The notification being shown, for the headline (`approval.expiring` says so). */
  kind?: ApprovalNotificationType;
};

// Block Kit limits: a section holds at most 10 fields of at most 2000 characters and a text of at most 3000, a
// header at most 150, a confirmation dialog's text at most 300. Past one, Slack refuses the whole message.
const MAX_FIELDS = 10;
const MAX_FIELD = 2000;
const MAX_TEXT = 3000;
const MAX_HEADER = 150;
const MAX_CONFIRM = 300;

/**
 * An approval as a Slack Block Kit message: a header, the description and reasons, fields (capability, requester,
 * acting agent, risk, expires in), the redacted input as labelled fields (and the approved input, when approved with
 * changes), quorum progress with the voters, and
 * buttons that open the decision links (approve `primary`, reject `danger`; approving a destructive call asks to
 * confirm). Everything from the view is escaped for mrkdwn, so a title cannot ping a channel or forge a link.
 *
 * @example
 * import { postToSlack, slackMessage } from "@orpc-agent/notify";
 * import { describeApproval, type AgentRuntime } from "@orpc-agent/core";
 * declare const runtime: AgentRuntime, record: Parameters<typeof describeApproval>[0];
 * const view = describeApproval(record, runtime.registry.get(record.capabilityId), { now: new Date() });
 * await postToSlack(process.env.SLACK_WEBHOOK_URL!, slackMessage(view, { links: { approve: "https://app.example/a/…", reject: "https://app.example/r/…" } }));
 */
export function slackMessage(view: ApprovalView, options: SlackMessageOptions = {}): SlackMessage {
  const title = headline(view, options.kind);
  const requester = actorName(view.requester);
  const blocks: KnownBlock[] = [];
  blocks.push({ type: "header", text: { type: "plain_text", text: clip(title, MAX_HEADER), emoji: false } } satisfies HeaderBlock);

  const about = [view.description, ...view.reasons.map((reason) => `• ${reason}`)].filter((line) => line.length > 0);
  if (about.length > 0) blocks.push({ type: "section", text: mrkdwn(clip(about.map(escapeMrkdwn).join("\n"), MAX_TEXT)) } satisfies SectionBlock);

  const facts: [string, string][] = [
    ["Capability", view.capabilityId],
    ["Requester", requester],
    ["Acting agent", view.actingAgent === undefined ? "none" : actorName(view.actingAgent)],
    ["Risk", riskLine(view)],
    ["Expires in", expiresIn(view.expiresInMs)],
  ];
  blocks.push({ type: "section", fields: facts.map(([label, value]) => labelled(label, value)) } satisfies SectionBlock);

  blocks.push(...inputBlocks("Input", view.input));
  // Approved with changes: what the approval binds now, redacted as the request's input is.
  const edited = view.decision?.editedInput;
  if (edited !== undefined) blocks.push(...inputBlocks("Approved input", edited));

  const status = view.decision === undefined ? progressLine(view) : `${progressLine(view)} · ${view.decision.status} by ${actorName(view.decision.approver)}`;
  blocks.push({ type: "context", elements: [mrkdwn(clip(`*Approvals:* ${escapeMrkdwn(status)}`, MAX_TEXT))] } satisfies ContextBlock);

  const links = openLinks(view, options.links);
  const buttons: Button[] = [];
  if (links.approve !== undefined) {
    buttons.push({
      type: "button",
      action_id: "approve",
      text: { type: "plain_text", text: "Approve" },
      style: "primary",
      url: links.approve,
      ...(view.destructive
        ? { confirm: { title: { type: "plain_text", text: "Approve a destructive call?" }, text: mrkdwn(clip(`This cannot be undone. Approve *${escapeMrkdwn(view.title)}*?`, MAX_CONFIRM)), confirm: { type: "plain_text", text: "Approve" }, deny: { type: "plain_text", text: "Cancel" }, style: "danger" } }
        : {}),
    });
  }
  if (links.reject !== undefined) buttons.push({ type: "button", action_id: "reject", text: { type: "plain_text", text: "Reject" }, style: "danger", url: links.reject });
  if (buttons.length > 0) blocks.push({ type: "actions", block_id: `approval_${clip(view.id, 200)}`, elements: buttons } satisfies ActionsBlock);

  const text = `${title} (requested by ${requester}; ${view.progress.label})`;
  return { text: escapeMrkdwn(text), blocks };
}

/** An input as labelled fields, ten to a section; a withheld one as a line saying so. */
function inputBlocks(heading: string, input: ApprovalViewInput): KnownBlock[] {
  if (!input.shown) return [{ type: "context", elements: [mrkdwn(clip(escapeMrkdwn(withheldLine(input.reason)), MAX_TEXT))] } satisfies ContextBlock];
  const fields = inputRows(input).map(([label, value]) => labelled(label, value));
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < fields.length; i += MAX_FIELDS) {
    blocks.push({ type: "section", ...(i === 0 ? { text: mrkdwn(`*${heading}*`) } : {}), fields: fields.slice(i, i + MAX_FIELDS) } satisfies SectionBlock);
  }
  return blocks;
}

function labelled(label: string, value: string): MrkdwnElement {
  return mrkdwn(clip(`*${escapeMrkdwn(label)}*\n${escapeMrkdwn(value)}`, MAX_FIELD));
}

function mrkdwn(text: string): MrkdwnElement {
  // verbatim: no automatic linking of URLs or @names in what the app did not write as a link.
  return { type: "mrkdwn", text, verbatim: true };
}

/** Slack's three control characters: `<` opens links and mentions, `&` entities. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** At most `max` characters, never ending inside an `&…;` entity the escaping made. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/&[a-z]*$/, "")}…`;
}

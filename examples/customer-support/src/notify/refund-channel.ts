// The support team's approvals channel: each refund that waits for a manager is sent, as a signed Standard Webhooks
// message (`@orpc-agent/notify`), to the team's receiver, carrying the Slack message (`slackMessage`) with the
// manager's own decision links. The receiver posts it to Slack in a real deployment; the demo's prints it.
import { mayDecide, type Actor, type AgentRuntime, type ApprovalNotification } from "@orpc-agent/core";
import { createWebhookNotifier, slackMessage, type DecisionLinks, type SlackMessage, type WebhookNotifier } from "@orpc-agent/notify";
import type { AppContext } from "../api/context.js";

/** The webhook's `data`: core's notification (the redacted view, never the stored input), the links, the message. */
export type RefundChannelEvent = ApprovalNotification & { links: DecisionLinks; slack: SlackMessage };

export type RefundChannel = {
  /** For `createSupportRuntime({ notify })`: core calls it off the call's path; it only enqueues the webhook. */
  notify(notification: ApprovalNotification): Promise<void>;
  /** Waits for the webhooks in flight (tests and the demo; a server lets them run in the background). */
  flush(): Promise<void>;
  readonly webhook: WebhookNotifier;
};

/** How long a link in a message works: an hour, and never past the approval's own expiry. */
const LINK_TTL_MS = 60 * 60 * 1000;

/**
 * Notifies `approver` of every refund that waits for approval. `runtime` is read when a notification arrives (the
 * runtime is built with this channel's `notify`); `page` is the approvals page whose `/approvals/decide` opens a link.
 */
export function createRefundChannel(options: { url: string; secret: string; approver: Actor; page: URL; runtime: () => AgentRuntime<AppContext> }): RefundChannel {
  const webhook = createWebhookNotifier({ url: options.url, secret: options.secret });
  // The token says which approval and action: the page reads them from it.
  const linkUrl = (token: string): string => {
    const url = new URL("/approvals/decide", options.page);
    url.search = new URLSearchParams({ token }).toString();
    return url.toString();
  };

  async function notify(notification: ApprovalNotification): Promise<void> {
    if (notification.type !== "approval.requested" || notification.capabilityId !== "orders.refund") return;
    // Links only for someone the runtime would let decide (never the requester herself).
    const links: DecisionLinks = {};
    if (mayDecide(notification.view, options.approver)) {
      const runtime = options.runtime();
      for (const action of ["approve", "reject"] as const) {
        const link = await runtime.approvals.decisionLink(notification.approvalId, { approver: options.approver, action, ttlMs: LINK_TTL_MS });
        links[action] = linkUrl(link.token);
      }
    }
    const event: RefundChannelEvent = { ...notification, links, slack: slackMessage(notification.view, { kind: notification.type, links }) };
    // One message per approval and kind, whatever retries or instances do: the receiver sees its webhook-id once.
    await webhook.notify(event, { id: `${notification.approvalId}.requested` });
  }

  return { notify, flush: () => webhook.flush(), webhook };
}

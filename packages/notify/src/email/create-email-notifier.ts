import type { ApprovalNotification } from "@orpc-agent/core";
import type { DecisionLinks } from "../view/approval-view.js";
import { approvalEmail } from "./approval-email.js";

/**
 * What the notifier hands a transport: a nodemailer `Transporter` (`nodemailer.createTransport(…)`) fits, as does
 * anything with a `sendMail` that takes these fields.
 */
export type EmailTransport = {
  sendMail(mail: { from: string; to: string | string[]; subject: string; text: string; html: string; headers?: Record<string, string> }): Promise<unknown>;
};

export type EmailNotifierOptions = {
  transport: EmailTransport;
  /** The sender, e.g. `"Approvals <approvals@example.com>"`. */
  from: string;
  /**
   * Who gets each notification: addresses, or a function of the notification (the approvers of its capability).
   * An empty list sends nothing.
   */
  to: string | readonly string[] | ((notification: ApprovalNotification) => readonly string[] | Promise<readonly string[]>);
  /**
   * Decision links for one recipient (the app mints them with `runtime.approvals.decisionLink` for that approver).
   * With it, each recipient gets an email of their own; without it, one email goes to all, with no buttons.
   */
  links?: (notification: ApprovalNotification, to: string) => DecisionLinks | undefined | Promise<DecisionLinks | undefined>;
};

/**
 * An approval notifier that emails each notification through a transport the app gives (nodemailer's, typically):
 * pass it as `createAgentRuntime({ approvals: { notify } })` (an `ApprovalNotifier`). Rejects when the transport does; core records a failed
 * delivery without affecting the call.
 *
 * @example
 * import nodemailer from "nodemailer";
 * import { createEmailNotifier } from "@orpc-agent/notify";
 * const notify = createEmailNotifier({
 *   transport: nodemailer.createTransport({ host: "smtp.example.com", port: 587 }),
 *   from: "Approvals <approvals@example.com>",
 *   to: ["manager@example.com"],
 * });
 */
export function createEmailNotifier(options: EmailNotifierOptions): (notification: ApprovalNotification) => Promise<void> {
  if (typeof options?.transport?.sendMail !== "function") throw new TypeError("createEmailNotifier: transport must have sendMail (a nodemailer transport)");
  if (typeof options.from !== "string" || options.from.length === 0) throw new TypeError("createEmailNotifier: from is required");
  const { transport, from, to, links } = options;
  return async (notification) => {
    const recipients = [...(typeof to === "function" ? await to(notification) : typeof to === "string" ? [to] : to)];
    if (recipients.length === 0) return;
    const kind = notification.type;
    const headers = { "X-Approval-Id": notification.view.id.replace(/[\r\n]/g, "") };
    if (links === undefined) {
      await transport.sendMail({ from, to: recipients, ...approvalEmail(notification.view, { kind }), headers });
      return;
    }
    for (const address of recipients) {
      const own = await links(notification, address);
      await transport.sendMail({ from, to: address, ...approvalEmail(notification.view, { kind, ...(own === undefined ? {} : { links: own }) }), headers });
    }
  };
}


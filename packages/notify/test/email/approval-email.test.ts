import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { approvalEmail, createEmailNotifier } from "../../src/index.js";
import { describeApproval } from "@orpc-agent/core";
import { approvedWithChanges, LINKS, NOW, refundCapability, refundView, requested } from "../support/approval-view.js";
import { mailHeader, mimePart, startSmtpReceiver } from "../support/smtp-receiver.js";

const HOSTILE = `<script>alert("pwned")</script><img src=x onerror=alert(1)>`;

let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

const transportTo = (port: number) => nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });

describe("approval email over a real SMTP server", () => {
  it("each approver receives an email of their own with their decision links, through a nodemailer SMTP transport", async () => {
    smtp = await startSmtpReceiver();
    const notify = createEmailNotifier({
      transport: transportTo(smtp.port),
      from: "Approvals <approvals@shop.example>",
      to: ["priya@shop.example", "ben@shop.example"],
      links: (notification, to) => ({ approve: `https://shop.example/decide?as=${to}&t=${notification.view.id}.approve` }),
    });

    await notify(requested(refundView()));

    expect(smtp.mails.map((mail) => [mail.from, mail.to])).toEqual([
      ["approvals@shop.example", ["priya@shop.example"]],
      ["approvals@shop.example", ["ben@shop.example"]],
    ]);
    const [priya] = smtp.mails;
    expect(mailHeader(priya!.raw, "Subject")).toBe("Approval needed: Refund an order");
    expect(mailHeader(priya!.raw, "X-Approval-Id")).toBe("apr_1");
    const text = mimePart(priya!.raw, "text/plain");
    expect(text).toContain("Requester: Dana (user_dana)");
    expect(text).toContain("Acting agent: Support assistant (agent_support)");
    expect(text).toContain("Risk: high risk, write, high-risk write");
    expect(text).toContain("Expires in: 2 hours 5 minutes");
    expect(text).toContain("Approvals: 1 of 2 approvals (Ben (user_ben))");
    expect(text).toContain("  Amount (cents): 32000");
    expect(text).toContain("Approve: https://shop.example/decide?as=priya@shop.example&t=apr_1.approve");
    expect(text).not.toContain("Reject:");
    const html = mimePart(priya!.raw, "text/html");
    expect(html).toContain('<a href="https://shop.example/decide?as=priya@shop.example&amp;t=apr_1.approve"');
    expect(html).toContain("<th align=\"left\" style=\"padding:2px 12px 2px 0\">Amount (cents)</th><td>32000</td>");
  });

  it("a hostile capability title and input arrive HTML-escaped, and the subject stays one line", async () => {
    smtp = await startSmtpReceiver();
    const notify = createEmailNotifier({ transport: transportTo(smtp.port), from: "approvals@shop.example", to: "priya@shop.example" });
    const capability = {
      ...refundCapability({ adapters: { mcp: { annotations: { title: `${HOSTILE}\r\nBcc: everyone@shop.example` } } }, redact: {} }),
      inputSchema: { type: "object", properties: { note: { type: "string", title: HOSTILE } } },
    };
    const view = refundView({ reasons: [HOSTILE], input: { note: HOSTILE } }, capability);

    await notify(requested(view));

    const [mail] = smtp.mails;
    expect(mail!.to).toEqual(["priya@shop.example"]);
    expect(mailHeader(mail!.raw, "Bcc")).toBeUndefined();
    const html = mimePart(mail!.raw, "text/html");
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    // The plain-text body carries the text as written: no HTML reader parses it.
    expect(mimePart(mail!.raw, "text/plain")).toContain(HOSTILE);
  });
});

describe("approvalEmail", () => {
  it("buttons only while pending and only for http(s) links; a destructive call warns", () => {
    const pending = approvalEmail(refundView({ sideEffect: "destructive" }), { links: { ...LINKS, reject: "javascript:alert(1)" } });
    expect(pending.html).toContain(`href="${LINKS.approve}"`);
    expect(pending.html).not.toContain("javascript:");
    expect(pending.text).toContain("This call is destructive: approving it cannot be undone.");
    const priya = { id: "user_priya", kind: "user" as const, displayName: "Priya" };
    const decided = approvalEmail(refundView({ status: "rejected", decision: { status: "rejected", approver: priya, decidedAt: new Date() } }), { links: LINKS });
    expect(decided.subject).toBe("Rejected: Refund an order");
    expect(decided.html).not.toContain("href=");
    expect(decided.text).toContain("Decision: rejected by Priya (user_priya)");
  });

  it("an approval with changes lists the approved input too, redacted alike", () => {
    const email = approvalEmail(describeApproval(approvedWithChanges(), refundCapability(), { now: NOW }));
    expect(email.subject).toBe("Approved with changes: Refund an order");
    expect(email.text).toContain("Input:\n  Order: ord_42\n  Amount (cents): 32000\n\nApproved input:\n  Order: ord_42\n  Amount (cents): 8000");
    expect(email.html).toContain("<h2 style=\"font-size:15px\">Approved input</h2>");
    expect(`${email.text}${email.html}`).not.toContain("tok_secret");
  });

  it("withheld input is said, never shown", () => {
    const failing = refundCapability({
      redact: {
        approvalInput: () => {
          throw new Error("redaction bug");
        },
      },
    });
    const email = approvalEmail(refundView({}, failing));
    expect(email.text).toContain("Input withheld (redaction-failed)");
    expect(email.html).not.toContain("32000");
  });

  it("no recipients, no mail; a transport without sendMail is refused", async () => {
    const sent: unknown[] = [];
    const notify = createEmailNotifier({ transport: { sendMail: async (mail) => sent.push(mail) }, from: "a@shop.example", to: () => [] });
    await notify(requested(refundView()));
    expect(sent).toEqual([]);
    expect(() => createEmailNotifier({ transport: {} as never, from: "a@shop.example", to: "b@shop.example" })).toThrow(/sendMail/);
  });
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ActionsBlock, Button, ContextBlock, HeaderBlock, SectionBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { postToSlack, slackMessage } from "../../src/index.js";
import { describeApproval } from "@orpc-agent/core";
import { approvedWithChanges, LINKS, NOW, refundCapability, refundView } from "../support/approval-view.js";

const texts = (section: SectionBlock) => (section.fields ?? []).map((field) => field.text);

describe("slackMessage", () => {
  it("a pending approval: header, facts, labelled input, quorum progress, and buttons that open the decision links", () => {
    const { text, blocks } = slackMessage(refundView(), { links: LINKS });

    expect(text).toBe("Approval needed: Refund an order (requested by Dana (user_dana); 1 of 2 approvals)");
    expect(blocks.map((block) => block.type)).toEqual(["header", "section", "section", "section", "context", "actions"]);
    const [header, about, facts, input, progress, actions] = blocks as [HeaderBlock, SectionBlock, SectionBlock, SectionBlock, ContextBlock, ActionsBlock];
    expect(header.text).toEqual({ type: "plain_text", text: "Approval needed: Refund an order", emoji: false });
    expect(about.text?.text).toBe("Refunds part or all of an order to the customer's card.\n• Refunds above 100 need a manager");
    expect(texts(facts)).toEqual([
      "*Capability*\norders.refund",
      "*Requester*\nDana (user_dana)",
      "*Acting agent*\nSupport assistant (agent_support)",
      "*Risk*\nhigh risk, write, high-risk write",
      "*Expires in*\n2 hours 5 minutes",
    ]);
    expect(input.text?.text).toBe("*Input*");
    expect(texts(input)).toEqual(["*Order*\nord_42", "*Amount (cents)*\n32000"]);
    expect(progress.elements).toEqual([{ type: "mrkdwn", text: "*Approvals:* 1 of 2 approvals (Ben (user_ben))", verbatim: true }]);
    const [approve, reject] = actions.elements as Button[];
    expect(approve).toMatchObject({ type: "button", action_id: "approve", style: "primary", url: LINKS.approve, text: { type: "plain_text", text: "Approve" } });
    expect(approve!.confirm).toBeUndefined();
    expect(reject).toMatchObject({ type: "button", action_id: "reject", style: "danger", url: LINKS.reject });
  });

  it("a destructive call asks to confirm before the approve link opens", () => {
    const { blocks } = slackMessage(refundView({ sideEffect: "destructive" }), { links: LINKS });
    const actions = blocks.find((block): block is ActionsBlock => block.type === "actions")!;
    const [approve] = actions.elements as Button[];
    expect(approve!.confirm).toMatchObject({
      title: { text: "Approve a destructive call?" },
      text: { text: "This cannot be undone. Approve *Refund an order*?" },
      confirm: { text: "Approve" },
      deny: { text: "Cancel" },
    });
    expect(JSON.stringify(blocks)).toContain("high risk, destructive");
  });

  it("no buttons once decided, for a link that is not http(s), or with no links", () => {
    const priya = { id: "user_priya", kind: "user" as const };
    const decided = refundView({ status: "approved", decision: { status: "approved", approver: priya, decidedAt: new Date() }, approvals: [{ approver: priya, at: new Date() }] });
    expect(slackMessage(decided, { links: LINKS }).blocks.some((block) => block.type === "actions")).toBe(false);
    expect(slackMessage(decided).text).toMatch(/^Approved: Refund an order/);
    expect(JSON.stringify(slackMessage(decided).blocks)).toContain("approved by user_priya");
    const onlyReject = slackMessage(refundView(), { links: { approve: "javascript:alert(1)", reject: LINKS.reject } });
    const actions = onlyReject.blocks.find((block): block is ActionsBlock => block.type === "actions")!;
    expect((actions.elements as Button[]).map((button) => button.action_id)).toEqual(["reject"]);
    expect(slackMessage(refundView()).blocks.some((block) => block.type === "actions")).toBe(false);
  });

  it("what the view holds cannot mention a channel or forge a link: mrkdwn control characters are escaped", () => {
    const hostile = "<!channel> <https://evil.example|Approve here> & more";
    const capability = { ...refundCapability({ description: hostile, adapters: { mcp: { annotations: { title: hostile } } }, redact: {} }), inputSchema: { type: "object", properties: { note: { type: "string", title: "<@U123>" } } } };
    const { text, blocks } = slackMessage(refundView({ input: { note: hostile } }, capability));
    const json = JSON.stringify({ text, blocks: blocks.filter((block) => block.type !== "header") });
    expect(json).not.toContain("<!channel>");
    expect(json).not.toContain("<https://evil");
    expect(json).not.toContain("<@U123>");
    expect(json).toContain("&lt;!channel&gt; &lt;https://evil.example|Approve here&gt; &amp; more");
    // A header is plain_text: Slack shows it as written, with no markup.
    expect((blocks[0] as HeaderBlock).text.text).toBe(`Approval needed: ${hostile}`);
  });

  it("an approval with changes shows the approved input beside the requested one, redacted alike", () => {
    const { text, blocks } = slackMessage(describeApproval(approvedWithChanges(), refundCapability(), { now: NOW }));
    expect(text).toMatch(/^Approved with changes: Refund an order/);
    const inputs = blocks.filter((block): block is SectionBlock => block.type === "section" && /^\*(Input|Approved input)\*$/.test((block as SectionBlock).text?.text ?? ""));
    expect(inputs.map((section) => [section.text!.text, texts(section)])).toEqual([
      ["*Input*", ["*Order*\nord_42", "*Amount (cents)*\n32000"]],
      ["*Approved input*", ["*Order*\nord_42", "*Amount (cents)*\n8000"]],
    ]);
    expect(JSON.stringify(blocks)).not.toContain("tok_secret");
  });

  it("long texts are cut to Block Kit's limits, never inside an escaped character", () => {
    const long = "<".repeat(5_000);
    const capability = refundCapability({ description: long, adapters: { mcp: { annotations: { title: long } } } });
    const { blocks } = slackMessage(refundView({ sideEffect: "destructive" }, capability), { links: LINKS });
    const [header, about] = blocks as [HeaderBlock, SectionBlock];
    expect(header.text.text).toHaveLength(150);
    expect(about.text!.text).toHaveLength(2_997);
    expect(about.text!.text).toMatch(/^(&lt;)+…$/);
    const actions = blocks.find((block): block is ActionsBlock => block.type === "actions")!;
    const confirm = (actions.elements as Button[])[0]!.confirm!;
    expect(confirm.text.text.length).toBeLessThanOrEqual(300);
    expect(confirm.text.text).toMatch(/^This cannot be undone\. Approve \*(&lt;)+…$/);
  });

  it("withheld input says so; more than ten fields take several sections", () => {
    // A descriptor from runtime.describe carries no redaction hook: the view withholds the input.
    const withheld = slackMessage(refundView({}, { id: "orders.refund", description: "Refunds an order." }));
    expect(JSON.stringify(withheld.blocks)).toContain("Input withheld (descriptor-only)");
    expect(JSON.stringify(withheld.blocks)).not.toContain("32000");
    // Without schema labels the fields come in the redacted copy's (canonical, sorted) key order.
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`Field ${String(i).padStart(2, "0")}`, { n: i }]));
    const wide = slackMessage(refundView({ input: many }, { id: "orders.refund", meta: {} }));
    const sections = wide.blocks.filter((block): block is SectionBlock => block.type === "section" && texts(block as SectionBlock).some((t) => t.startsWith("*Field")));
    expect(sections.map((section) => section.fields?.length)).toEqual([10, 2]);
    expect(texts(sections[1]!)).toEqual(['*Field 10*\n{"n":10}', '*Field 11*\n{"n":11}']);
  });

  it("an expiring notification says how long is left", () => {
    expect(slackMessage(refundView({ expiresAt: new Date(NOW.getTime() + 9 * 60_000 + 30_000) }), { kind: "approval.expiring" }).text).toMatch(/^Approval expiring in 9 minutes 30 seconds: Refund an order/);
  });
});

describe("postToSlack", () => {
  it("posts the message as JSON to the incoming-webhook URL, and rejects with Slack's answer on an error", async () => {
    const received: unknown[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        received.push({ path: req.url, type: req.headers["content-type"], body });
        if (body.blocks.length === 0) res.writeHead(400).end("invalid_blocks");
        else res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/XXXX`;
    try {
      const message = slackMessage(refundView(), { links: LINKS });
      await postToSlack(url, message);
      expect(received).toEqual([{ path: "/services/T000/B000/XXXX", type: "application/json", body: JSON.parse(JSON.stringify(message)) }]);
      await expect(postToSlack(url, { text: "x", blocks: [] })).rejects.toThrow("Slack answered HTTP 400: invalid_blocks");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

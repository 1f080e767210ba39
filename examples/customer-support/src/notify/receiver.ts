// The approvals receiver the demo starts: another service in a real deployment (the one that posts to Slack). It
// verifies each webhook's Standard Webhooks signature and timestamp with the `standardwebhooks` library, processes
// each webhook-id once (a retry or a replay of a delivery it has seen is acknowledged and dropped), and keeps the
// Slack message it would post.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { DecisionLinks, SlackMessage } from "@orpc-agent/notify";

/** One verified delivery: the webhook-id, the event type, the approval, and the message with its links. */
export type ReceivedApproval = { webhookId: string; type: string; approvalId: string; slack: SlackMessage; links: DecisionLinks };

export type ApprovalsReceiver = {
  url: string;
  /** Verified deliveries, each webhook-id once, in arrival order. */
  readonly received: ReceivedApproval[];
  /** Requests refused: a bad signature, a stale timestamp, a body that is not a webhook. */
  readonly refused: number;
  /** Verified again with an id already processed (a retry or a replay): acknowledged, not processed. */
  readonly duplicates: number;
  close(): Promise<void>;
};

/** The most a webhook body may hold; a larger one is refused before it is read to the end. */
const MAX_BODY = 256 * 1024;

export async function startApprovalsReceiver(secret: string): Promise<ApprovalsReceiver> {
  const verifier = new Webhook(secret);
  const seen = new Set<string>();
  const received: ReceivedApproval[] = [];
  let refused = 0;
  let duplicates = 0;

  const server = createServer((req, res) => {
    let body = "";
    let tooLarge = false;
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) tooLarge = true;
    });
    req.on("end", () => {
      let payload: { type: string; data: { approvalId: string; slack: SlackMessage; links: DecisionLinks } };
      try {
        if (tooLarge || req.method !== "POST") throw new Error("not a webhook");
        // Throws on a missing or wrong signature and on a timestamp more than five minutes off.
        payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
      } catch {
        refused += 1;
        res.writeHead(400).end();
        return;
      }
      const webhookId = String(req.headers["webhook-id"]);
      if (seen.has(webhookId)) duplicates += 1;
      else {
        seen.add(webhookId);
        const { approvalId, slack, links } = payload.data;
        received.push({ webhookId, type: payload.type, approvalId, slack, links });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/approvals`,
    received,
    get refused() {
      return refused;
    },
    get duplicates() {
      return duplicates;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message as the demo prints it: the text, each input field, and the URL behind each button. */
export function printableSlackMessage(message: SlackMessage): string[] {
  const lines = [message.text];
  for (const block of message.blocks) {
    if (block.type === "section" && block.fields) lines.push(`  ${block.fields.map((field) => field.text.replace(/\*/g, "").replace(/\n/g, " ")).join(" | ")}`);
    if (block.type === "actions") {
      for (const element of block.elements) if (element.type === "button" && element.url) lines.push(`  [${element.text.text}] ${element.url}`);
    }
  }
  return lines;
}

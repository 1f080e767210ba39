import type { SlackMessage } from "./slack-message.js";

/**
 * Posts a message to a Slack incoming-webhook URL the app created. Resolves when Slack answers 2xx; otherwise
 * rejects with an Error carrying Slack's answer (`invalid_blocks`, `no_service`, …). One try: retry or queue it in
 * the app, or post through a webhook notifier's outbox.
 *
 * @example
 * import { postToSlack } from "@orpc-agent/notify";
 * await postToSlack(process.env.SLACK_WEBHOOK_URL!, { text: "Approval needed: Refund", blocks: [] });
 */
export async function postToSlack(webhookUrl: string, message: SlackMessage, options: { fetch?: typeof globalThis.fetch; timeoutMs?: number } = {}): Promise<void> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const response = await fetchImpl(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const answer = await response.text().catch(() => "");
  if (!response.ok) throw new Error(`postToSlack: Slack answered HTTP ${response.status}${answer.length > 0 ? `: ${answer.slice(0, 200)}` : ""}`);
}

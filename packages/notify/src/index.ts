// Delivery of approval notifications (issue 50): signed webhooks through an outbox, Slack and email formatters.
export { createWebhookNotifier } from "./webhook/create-webhook-notifier.js";
export type { DrainReport, WebhookEvent, WebhookNotifier, WebhookNotifierOptions } from "./webhook/create-webhook-notifier.js";
export type { WebhookRetryOptions } from "./webhook/retry.js";

export { createInMemoryWebhookOutbox } from "./outbox/in-memory-outbox.js";
export type { ClaimedMessage, OutboxMessage, OutboxRow, OutboxStatus, Settlement, WebhookOutbox } from "./outbox/types.js";
export { createPgWebhookOutbox } from "./outbox/pg/pg-webhook-outbox.js";
export type { PgWebhookOutboxOptions } from "./outbox/pg/pg-webhook-outbox.js";
export { DEFAULT_WEBHOOK_OUTBOX_TABLE, WEBHOOK_OUTBOX_DDL, webhookOutboxDdl } from "./outbox/pg/ddl.js";
export type { PgQuery } from "./outbox/pg/pg-query.js";

export type { DecisionLinks } from "./view/approval-view.js";

export { slackMessage } from "./slack/slack-message.js";
export type { SlackMessage, SlackMessageOptions } from "./slack/slack-message.js";
export { postToSlack } from "./slack/post-to-slack.js";

export { approvalEmail } from "./email/approval-email.js";
export type { ApprovalEmail, ApprovalEmailOptions } from "./email/approval-email.js";
export { createEmailNotifier } from "./email/create-email-notifier.js";
export type { EmailNotifierOptions, EmailTransport } from "./email/create-email-notifier.js";

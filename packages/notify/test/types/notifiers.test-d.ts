// The package's notifiers fit core's seam and the libraries' own types, with no cast.
import type { ApprovalNotification, ApprovalNotifier, ApprovalView } from "@orpc-agent/core";
import type { KnownBlock } from "@slack/types";
import type { Transporter } from "nodemailer";
import { expectTypeOf, test } from "vitest";
import { createEmailNotifier, slackMessage, type EmailTransport, type WebhookNotifier } from "../../src/index.js";

test("createEmailNotifier gives an ApprovalNotifier, and a nodemailer transporter is a transport", () => {
  expectTypeOf(createEmailNotifier).returns.toExtend<ApprovalNotifier>();
  expectTypeOf<Transporter>().toExtend<EmailTransport>();
});

test("a webhook notifier takes core's notifications as they come", () => {
  expectTypeOf<WebhookNotifier["notify"]>().toBeCallableWith({} as ApprovalNotification);
  // An event needs a type.
  expectTypeOf<WebhookNotifier["notify"]>().parameter(0).toExtend<{ readonly type: string }>();
});

test("slackMessage takes core's view and gives Block Kit blocks", () => {
  expectTypeOf(slackMessage).parameter(0).toEqualTypeOf<ApprovalView>();
  expectTypeOf(slackMessage).returns.toEqualTypeOf<{ text: string; blocks: KnownBlock[] }>();
});

import { describe, expectTypeOf, it } from "vitest";
import type {
  AgentCapability,
  AgentRuntimeOptions,
  ApprovalNotification,
  ApprovalNotifier,
  ApprovalView,
  ApprovalViewCapability,
  CapabilityDescriptor,
} from "../../src/index.js";
import { describeApproval } from "../../src/index.js";

// The view takes what the runtime hands out (a registry entry, a descriptor), and a notifier narrows by `type`.
describe("approval view and notification types", () => {
  it("describeApproval accepts a registry entry, a descriptor or nothing", () => {
    expectTypeOf<AgentCapability>().toExtend<ApprovalViewCapability>();
    expectTypeOf<CapabilityDescriptor>().toExtend<ApprovalViewCapability>();
    expectTypeOf(describeApproval).parameter(1).toEqualTypeOf<ApprovalViewCapability | undefined>();
    expectTypeOf(describeApproval).returns.toEqualTypeOf<ApprovalView>();
  });

  it("a notification narrows by type, and every one carries the view, types and progress", () => {
    const notify: ApprovalNotifier = (notification) => {
      expectTypeOf(notification.view).toEqualTypeOf<ApprovalView>();
      expectTypeOf(notification.types).toEqualTypeOf<readonly string[]>();
      if (notification.type === "approval.decided") expectTypeOf(notification.vote.status).toEqualTypeOf<"approved" | "rejected">();
      if (notification.type === "approval.expiring") expectTypeOf(notification.expiresInMs).toEqualTypeOf<number>();
      if (notification.type === "approval.escalated") expectTypeOf(notification.step).toEqualTypeOf<number>();
    };
    expectTypeOf(notify).toExtend<NonNullable<NonNullable<AgentRuntimeOptions["approvals"]>["notify"]>>();
    expectTypeOf<ApprovalNotification["type"]>().toEqualTypeOf<"approval.requested" | "approval.decided" | "approval.expiring" | "approval.escalated">();
  });

  it("the view is read-only", () => {
    // @ts-expect-error a view's fields cannot be assigned
    ((view: ApprovalView) => (view.title = "x"))({} as ApprovalView);
  });
});

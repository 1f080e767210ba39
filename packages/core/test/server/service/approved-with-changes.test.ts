import { afterEach, describe, expect, it } from "vitest";
import { projectResult } from "../../../src/server/service/project-result.js";
import { dana, newInvocationId, priya, startShop, type Shop } from "../remote-fixture.js";

// Approve with changes over the remote path (docs/guides/approvals.md#approve-with-changes): the completed answer to a
// resume whose approver edited the input carries `approvedWithChanges: { changed }` exactly as `runtime.resume` does,
// through the wire, the journal's replay and reconcile; an approval without changes adds nothing.
const input = { orderId: "o9", cents: 900 };
const edited = { orderId: "o9", cents: 400 };

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

async function suspendOverHttp(s: Shop) {
  const invocationId = newInvocationId();
  const first = await s.client(dana).invoke({ capabilityId: "orders.gatedRefund", input, invocationId });
  if (first.status !== "approval-required") throw new Error(`expected approval-required, got ${first.status}`);
  return { invocationId, approvalId: first.approval.id };
}

describe("approvedWithChanges over the remote path", () => {
  it("a resume approved with changes answers with the pointers over HTTP, replays them and reconciles with them", async () => {
    shop = await startShop();
    const { invocationId, approvalId } = await suspendOverHttp(shop);
    await shop.makeRuntime().approvals.decide(approvalId, { status: "approved", approver: priya, input: edited });

    const resumed = await shop.client(dana).resume({ invocationId, approvalId });
    expect(resumed).toMatchObject({ status: "completed", replayed: false, output: { refunded: 400 }, approvedWithChanges: { changed: ["/cents"] } });
    expect(shop.effects.keys.map((k) => k.input)).toEqual([edited]);

    const replayed = await shop.client(dana).resume({ invocationId, approvalId });
    expect(replayed).toEqual({ ...resumed, replayed: true });
    const reconciled = await shop.client(dana).reconcile({ invocationId });
    expect(reconciled).toMatchObject({ state: "settled", result: { status: "completed", approvedWithChanges: { changed: ["/cents"] } } });
    expect(shop.effects.count("orders.gatedRefund")).toBe(1);
  });

  it("a withheld output replays without the output and still says what changed", async () => {
    shop = await startShop({ service: { maxStoredOutputBytes: 1 } });
    const { invocationId, approvalId } = await suspendOverHttp(shop);
    await shop.makeRuntime().approvals.decide(approvalId, { status: "approved", approver: priya, input: edited });
    await shop.client(dana).resume({ invocationId, approvalId });
    const replayed = await shop.client(dana).resume({ invocationId, approvalId });
    expect(replayed).toMatchObject({ status: "completed", replayed: true, outputWithheld: true, approvedWithChanges: { changed: ["/cents"] } });
    expect(replayed).not.toHaveProperty("output");
  });

  it("an approval without changes adds nothing, first answer, replay or reconcile", async () => {
    shop = await startShop();
    const { invocationId, approvalId } = await suspendOverHttp(shop);
    await shop.makeRuntime().approvals.decide(approvalId, { status: "approved", approver: priya });
    const resumed = await shop.client(dana).resume({ invocationId, approvalId });
    expect(resumed).toMatchObject({ status: "completed", output: { refunded: 900 } });
    const replayed = await shop.client(dana).resume({ invocationId, approvalId });
    const reconciled = await shop.client(dana).reconcile({ invocationId });
    for (const answer of [resumed, replayed, reconciled.state === "settled" ? reconciled.result : undefined]) {
      expect(answer).toBeDefined();
      expect(answer).not.toHaveProperty("approvedWithChanges");
    }
  });

  it("projectResult copies the pointers of a completed result and adds nothing to one without them", () => {
    const changed = ["/cents"];
    const projected = projectResult({ status: "completed", executionId: "exe_1", output: "ok", approvedWithChanges: { changed } }, "inv-1");
    expect(projected).toEqual({ protocol: 1, invocationId: "inv-1", executionId: "exe_1", replayed: false, status: "completed", output: "ok", approvedWithChanges: { changed: ["/cents"] } });
    expect((projected as { approvedWithChanges: { changed: string[] } }).approvedWithChanges.changed).not.toBe(changed);
    expect(projectResult({ status: "completed", executionId: "exe_1", output: "ok" }, "inv-1")).not.toHaveProperty("approvedWithChanges");
  });
});

// The demo's conversation is also the example's end-to-end test: statuses and audit events, not printed text.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { runDemo, type DemoResult } from "../src/demo/flow.js";
import { printableSlackMessage } from "../src/notify/receiver.js";

const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-demo-"));
let storage: Storage;
let result: DemoResult;

describe("the customer-support demo on embedded PGlite", () => {
  afterAll(async () => {
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs the whole governed conversation", async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    result = await runDemo(storage);
    expect(result.steps.map((s) => [s.title, s.status])).toEqual([
      ["model calls customers_get", "ok"],
      ["model calls orders_list", "ok"],
      ["model calls orders_refund", "approval-required"],
      ["Dana approves her own refund", "refused APPROVAL_SELF_APPROVAL"],
      ["Priya (manager) approves, with a grant", "approved"],
      ["resume the approved refund", "completed"],
      ["resume it a second time", "failed APPROVAL_CONSUMED"],
      ["model calls orders_refund (150)", "ok"],
      ["model calls orders_refund (120)", "ok"],
      ["model calls orders_refund (250)", "approval-required"],
      ["model calls orders_refund (110)", "ok"],
      ["model calls orders_refund (105)", "approval-required"],
      ["Priya revokes a grant for Grace's refunds", "revoked"],
      ["refund Grace 120 after the revoke", "approval-required"],
      ["model calls customers_delete", "error POLICY_DENIED"],
      ["Root deletes Grace's account (admin)", "approval-required"],
      ["Priya (manager) approves the deletion", "pending"],
      ["Priya approves it a second time", "refused: one vote per approver"],
      ["Sam (data protection) approves the deletion", "approved"],
      ["resume the approved deletion", "completed"],
      ["MCP tools/list as Dana (support)", "5 tools"],
      ["MCP tools/call orders_list as Dana", "ok"],
      ["MCP tools/list as Root (administrator)", "6 tools"],
      ["model calls orders_export (streaming)", "ok"],
      ["approvals receiver verifies the webhooks", "4 verified"],
      ["Priya approves the 250 refund by link", "approved"],
      ["the same link, opened again", "refused APPROVAL_CONSUMED"],
      ["model calls orders_refund (320) again", "approval-required"],
      ["Priya approves it with 80 instead of 320", "approved"],
      ["resume the edited refund", "completed"],
    ]);
  }, 60_000);

  it("keeps the self-approved request pending, then runs the refund exactly once, approved by the manager", () => {
    expect(result.steps[3]!.detail).toBe("the request is still pending");
    // The approved refund, the three its grant covered, the one approved by link and the one approved with changes.
    expect(result.effects).toEqual({ refunds: 6, deletions: 1 });
    expect(JSON.parse(result.steps[5]!.detail)).toMatchObject({ orderId: "o_1002", amountCents: 32_000, approvedBy: "u_priya" });
  });

  it("a standing grant: three more refunds of c_ada up to 200 run without asking, one over 200 asks, the fourth asks once the uses are spent", () => {
    const detail = (title: string) => result.steps.find((s) => s.title === title)!.detail;
    expect(detail("Priya (manager) approves, with a grant")).toBe("refunds up to 200 for c_ada, 3 more, for 1 h");
    for (const [title, amountCents] of [["model calls orders_refund (150)", 15_000], ["model calls orders_refund (120)", 12_000], ["model calls orders_refund (110)", 11_000]] as const) {
      expect(JSON.parse(detail(title))).toMatchObject({ orderId: "o_1002", amountCents, approvedBy: "u_priya" });
    }
    expect(detail("model calls orders_refund (250)")).toBe("Awaiting approval: Refund of 250 exceeds the 100 limit.");
    expect(detail("model calls orders_refund (105)")).toBe("Awaiting approval: Refund of 105 exceeds the 100 limit.");
    const grants = result.audit.filter((row) => row.type.startsWith("grant.") || row.detail.includes("(grant,")).map((row) => [row.type, row.actor, row.detail]);
    expect(grants).toEqual([
      ["grant.issued", "u_priya", "3 uses, conversation scope"],
      ["capability.approved", "u_priya", "by u_priya (grant, 2 uses left)"],
      ["capability.approved", "u_priya", "by u_priya (grant, 1 uses left)"],
      ["capability.approved", "u_priya", "by u_priya (grant, 0 uses left)"],
      ["grant.issued", "u_priya", "2 uses, actor scope"],
      ["grant.revoked", "u_priya", "reason Grace's case is closed."],
    ]);
  });

  it("notifies the approvers: each refund that waits reaches the receiver as a verified webhook with the Slack message and Priya's decision links", () => {
    const detail = (title: string) => result.steps.find((s) => s.title === title)!.detail;
    expect(detail("approvals receiver verifies the webhooks")).toBe("0 refused; first: Approval needed: orders.refund (requested by Dana (support) (u_dana); 0 of 1 approval)");
    // Dana's refund (320), the 250 and 105 ones, Grace's, and the one approved with changes: one webhook each.
    expect(result.notifications.map((n) => [n.type, n.webhookId])).toEqual(
      result.notifications.map((n) => ["approval.requested", `${n.approvalId}.requested`]),
    );
    expect(result.notifications).toHaveLength(5);
    const first = result.notifications[0]!;
    expect(first.approvalId).toBe(result.approvalId);
    expect(printableSlackMessage(first.slack)).toContain("  Order o_1002 | Amount (cents) 32000");
    // The redacted view only: the model-written reason never leaves the app.
    expect(JSON.stringify(result.notifications)).not.toContain("Keyboard arrived broken");
    for (const action of ["approve", "reject"] as const) {
      const url = new URL(first.links[action]!);
      // The token alone says which approval and action: the page reads them from it.
      expect([url.pathname, [...url.searchParams.keys()]]).toEqual(["/approvals/decide", ["token"]]);
      expect(url.searchParams.get("token")).toMatch(/^dl1\.demo-links\./);
    }
    const buttons = first.slack.blocks.flatMap((block) => (block.type === "actions" ? block.elements : [])).map((e) => (e as { url?: string }).url);
    expect(buttons).toEqual([first.links.approve, first.links.reject]);
  });

  it("Priya approves by link: the page shows the request, the button decides as her with her comment, the refund runs, the link works once", () => {
    const detail = (title: string) => result.steps.find((s) => s.title === title)!.detail;
    expect(detail("Priya approves the 250 refund by link")).toBe('the link page showed the request; Approved and resumed. (decided by u_priya, "Approved from Slack.")');
    expect(result.audit.filter((row) => row.capability === "orders.refund" && row.type === "capability.approved" && row.detail === "by u_priya")).toHaveLength(3);
  });

  it("approve with changes: Priya approves 80 instead of 320; the refund that runs is 80 and the model is told where it changed", () => {
    const detail = (title: string) => result.steps.find((s) => s.title === title)!.detail;
    expect(detail("Priya approves it with 80 instead of 320")).toBe("Partial refund: 80, the cable was fine.");
    const told = JSON.parse(detail("resume the edited refund").replace(/^the model is told /, ""));
    expect(told).toEqual({ status: "ok", data: { refundId: "r_6", orderId: "o_1002", amountCents: 8_000, approvedBy: "u_priya" }, approvedWithChanges: { changed: ["/amountCents"] } });
  });

  it("a revoked grant covers nothing: Grace's refund asks a manager", () => {
    expect(result.steps.find((s) => s.title === "Priya revokes a grant for Grace's refunds")!.detail).toBe("2 uses left, none will be taken");
    expect(result.steps.find((s) => s.title === "refund Grace 120 after the revoke")!.status).toBe("approval-required");
  });

  it("four eyes: the deletion runs only after two distinct approvers, counting a repeated approval once", () => {
    const detail = (title: string) => result.steps.find((s) => s.title === title)!.detail;
    expect(detail("Root deletes Grace's account (admin)")).toBe("0 of 2 approvals");
    expect(detail("Priya (manager) approves the deletion")).toBe("1 of 2 approvals");
    expect(detail("Priya approves it a second time")).toBe("1 of 2 approvals");
    expect(detail("Sam (data protection) approves the deletion")).toBe("2 of 2 approvals");
    expect(JSON.parse(detail("resume the approved deletion"))).toEqual({ deleted: "c_grace" });
    const deletion = result.audit.filter((row) => row.capability === "customers.delete" && row.actor !== "u_dana").map((row) => [row.type, row.actor, row.detail]);
    expect(deletion).toEqual([
      ["capability.requested", "u_root", ""],
      ["capability.approval_requested", "u_root", expect.stringMatching(/^apr_/)],
      ["capability.approval_recorded", "u_priya", "by u_priya (1 of 2 approvals)"],
      ["capability.approved", "u_sam", "by u_sam (2 of 2 approvals)"],
      ["capability.started", "u_root", expect.stringMatching(/^apr_/)],
      ["capability.completed", "u_root", "1 attempt(s)"],
    ]);
  });

  it("trials one shadow policy: the profile read runs, and the audit trail records what the shadow would have done", () => {
    expect(result.steps[0]).toMatchObject({ title: "model calls customers_get", status: "ok" });
    const diverged = result.audit.filter((row) => row.type === "capability.shadow_diverged").map((row) => [row.actor, row.capability, row.detail]);
    expect(diverged).toEqual([["u_dana", "customers.get", "shadow profile-read-needs-manager would require-approval (enforced allow)"]]);
    // A shadow's stance never joins the enforced evidence: the read is requested and completed, never held.
    const read = result.audit.filter((row) => row.capability === "customers.get").map((row) => row.type);
    expect(read).toEqual(["capability.requested", "capability.shadow_diverged", "capability.started", "capability.completed"]);
  });

  it("redacts personal data before the model sees it", () => {
    const customer = JSON.parse(result.steps[0]!.detail);
    expect(customer.email).toBe("a***@example.com");
    expect(customer).not.toHaveProperty("phone");
  });

  it("streams the export into the chat: each page a preliminary result, progress to the last order, one audited completion counting the events", () => {
    const step = result.steps.find((s) => s.title === "model calls orders_export (streaming)")!;
    expect(step.detail).toBe("pages 1, 2 as preliminary results; progress 2 of 2 orders");
    const exportRows = result.audit.filter((row) => row.capability === "orders.export").map((row) => [row.type, row.detail]);
    expect(exportRows).toEqual([
      ["capability.requested", ""],
      ["capability.started", ""],
      ["capability.completed", "1 attempt(s), 2 event(s)"],
    ]);
  });

  it("gives each MCP identity its own catalog: only the administrator sees the internal tool", () => {
    expect(result.mcpCatalogs.u_dana).not.toContain("internal_recomputeLoyalty");
    expect(result.mcpCatalogs.u_root).toContain("internal_recomputeLoyalty");
  });

  it("records the story in the durable audit trail, with the approver as the actor of the approval", () => {
    const refund = result.audit.filter((row) => row.capability === "orders.refund").map((row) => [row.type, row.actor]);
    const covered = [
      ["capability.requested", "u_dana"],
      ["capability.approved", "u_priya"],
      ["capability.started", "u_dana"],
      ["capability.completed", "u_dana"],
    ];
    const asks = [
      ["capability.requested", "u_dana"],
      ["capability.approval_requested", "u_dana"],
    ];
    expect(refund).toEqual([
      ["capability.requested", "u_dana"],
      ["capability.approval_requested", "u_dana"],
      ["capability.approved", "u_priya"],
      ["grant.issued", "u_priya"],
      ["capability.started", "u_dana"],
      ["capability.completed", "u_dana"],
      ["capability.failed", "u_dana"],
      ...covered,
      ...covered,
      ...asks,
      ...covered,
      ...asks,
      ["grant.issued", "u_priya"],
      ["grant.revoked", "u_priya"],
      ...asks,
      // Section 9: the 250 refund approved by link and resumed, then a request approved with changes.
      ["capability.approved", "u_priya"],
      ["capability.started", "u_dana"],
      ["capability.completed", "u_dana"],
      ...asks,
      ...covered.slice(1),
    ]);
    expect(result.audit.find((row) => row.capability === "customers.delete" && row.type === "capability.denied")?.detail).toBe("reason policy-denied");
    expect(result.audit.some((row) => row.type === "capability.rejected")).toBe(false);
  });

  // The numbers a reader is told come from this run: the README's sample output and the getting-started page.
  it("matches the audit count the README and the getting-started page state", () => {
    const doc = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
    expect(doc("../../../README.md")).toContain(`Audit trail (${result.audit.length} events, no inputs or outputs recorded)`);
    expect(doc("../../../docs/getting-started.md")).toContain(`read back from the database: ${result.audit.length} events`);
  });

  it("keeps payloads out of the audit table", async () => {
    const { rows } = await storage.query("select data::text as data from orpc_agent_audit_events", []);
    const text = rows.map((r) => String(r.data)).join("\n");
    expect(text).not.toContain("Keyboard arrived broken");
    expect(text).not.toContain("ada@example.com");
  });
});

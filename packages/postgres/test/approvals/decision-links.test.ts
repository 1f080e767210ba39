import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CapabilityError, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentAuditEvent, type AgentRuntime } from "@orpc-agent/core";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { createTestPool, REAL_SERVER, usePgSchema } from "../support/real-server.js";

// Signed decision links across instances (issue 50, SI-4; docs/guides/decision-links.md): two runtimes, each with its
// own pool and coordinator over one PostgreSQL table and the same keys, stand for two instances. A link minted on one
// decides on the other; the same link opened on both at once decides once, since the store's compare-and-set refuses
// the second use whatever the interleaving.
const dana = { id: "dana", kind: "user" } as const;
const mo = { id: "mo", kind: "user" } as const;
const LINKS = { keys: [{ id: "links-1", secret: "links-key-that-is-at-least-thirty-two-bytes" }] };
const SEAL = { keys: [{ id: "seal-1", secret: "seal-key-that-is-at-least-thirty-two-bytes!" }] };

const db = usePgSchema("decision_links", [APPROVALS_DDL]);

function governance(ran: number[]) {
  const gate = (quorum?: number) => ({ required: true as const, ...(quorum === undefined ? {} : { quorum }) });
  const refund = (quorum?: number) =>
    ap
      .input(z.object({ amount: z.number() }))
      .meta({ agent: { description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: gate(quorum) } })
      .handler(({ input }) => (ran.push(input.amount), "refunded"));
  return defineGovernance({ registry: createCapabilityRegistry({ refund: refund(), refundTwice: refund(2) }) });
}

type Instance = { runtime: AgentRuntime; events: AgentAuditEvent[] };

describe(`decision links on ${REAL_SERVER}`, () => {
  const ran: number[] = [];
  const pools: pg.Pool[] = [];
  let a: Instance;
  let b: Instance;

  beforeAll(() => {
    const gov = governance(ran);
    const instance = (): Instance => {
      const pool = createTestPool({ max: 4, searchPath: db.name });
      pools.push(pool);
      const events: AgentAuditEvent[] = [];
      const coordinator = createPgApprovalCoordinator({ query: (sql, params) => pool.query(sql, params as unknown[]) });
      const runtime = createAgentRuntime({ governance: gov, approvals: { coordinator, seal: SEAL, links: LINKS }, audit: (e: AgentAuditEvent) => void events.push(e) });
      return { runtime, events };
    };
    a = instance();
    b = instance();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
  });

  async function request(on: Instance, id = "refund", amount = 5): Promise<string> {
    const result = await on.runtime.invoke(id, { amount }, { actor: dana, context: {} });
    if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
    return result.approval.id;
  }

  const codeOf = (reason: unknown) => (CapabilityError.isInstance(reason) ? reason.code : String(reason));

  it("SI-4: a link minted on instance A decides on instance B, which audits it as a link; A resumes the approval", async () => {
    const id = await request(a);
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const decided = await b.runtime.approvals.decideWithLink(token, { comment: "from the email" });
    expect(decided).toMatchObject({ id, status: "approved", decision: { approver: mo, comment: "from the email" } });
    expect(b.events.find((e) => e.type === "capability.approved" && e.data.approvalId === id)).toMatchObject({ data: { via: "link", linkId: expect.stringMatching(/^lnk_/) } });
    expect(await a.runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
    // Replayed on either instance afterwards: refused by the store.
    for (const on of [a, b]) expect(codeOf(await on.runtime.approvals.decideWithLink(token).catch((e: unknown) => e))).toBe("APPROVAL_CONSUMED");
  });

  it("SI-4: one link opened on A and B at once decides exactly once, round after round", async () => {
    for (let round = 0; round < 8; round++) {
      const before = ran.length;
      const id = await request(round % 2 === 0 ? a : b, "refund", 100 + round);
      const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
      const results = await Promise.allSettled([a.runtime.approvals.decideWithLink(token), b.runtime.approvals.decideWithLink(token)]);
      const fulfilled = results.filter((r) => r.status === "fulfilled");
      const refused = results.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []));
      expect(fulfilled).toHaveLength(1);
      expect(refused).toEqual(["APPROVAL_ALREADY_DECIDED"]);
      expect(await b.runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
      expect(ran.slice(before)).toEqual([100 + round]);
    }
  });

  it("SI-4: on a quorum of 2, one approver's link opened on both instances at once counts one vote", async () => {
    for (let round = 0; round < 5; round++) {
      const id = await request(a, "refundTwice", 200 + round);
      const { token } = await b.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
      const results = await Promise.allSettled([a.runtime.approvals.decideWithLink(token), b.runtime.approvals.decideWithLink(token)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.flatMap((r) => (r.status === "rejected" ? [codeOf(r.reason)] : []))).toEqual(["APPROVAL_ALREADY_DECIDED"]);
      const record = (await a.runtime.approvals.get(id))!;
      expect(record.status).toBe("pending");
      expect(record.approvals).toHaveLength(1);
    }
  });

  it("SI-4: a link used on B after the approval was rejected on A is refused, and nothing runs", async () => {
    const before = ran.length;
    const id = await request(a, "refund", 300);
    const { token } = await b.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    await a.runtime.approvals.decide(id, { status: "rejected", approver: { id: "ben", kind: "user" } });
    expect(codeOf(await b.runtime.approvals.decideWithLink(token).catch((e: unknown) => e))).toBe("APPROVAL_REJECTED");
    expect(ran.length).toBe(before);
  });
});

// SI-4 through signed decision links (issue 50, item 2): a link is one more way to call `decide`, never a weaker one.
// The attacks alter a genuine token (a flipped byte, another approval's id, another approver, the other action, another
// key), replay it, use it late, use it after the approval was decided elsewhere, use it after its key was rotated out,
// mint one for the requester or her agent, and hand `decisionLink` an approver that answers each read differently.
// Every altered token is APPROVAL_LINK_INVALID, one answer for all; nothing is decided and nothing runs.
import { CapabilityError, createInMemoryApprovalCoordinator, type Actor, type ApprovalCoordinator, type ErrorCode } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clockAt } from "./support/approval-stores.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";
import { tamperable } from "./support/tamperable.js";

const ben: Actor = Object.freeze({ id: "ben", kind: "user" });
const K1 = { id: "k1", secret: "links-key-one-that-is-at-least-32-bytes!" };
const K2 = { id: "k2", secret: "links-key-two-that-is-at-least-32-bytes!" };
const SEAL = { id: "s1", secret: "seal-key-that-is-also-at-least-32-bytes!" };

function app(options: { quorum?: number; linkKeys?: (typeof K1)[] | undefined; coordinator?: ApprovalCoordinator; actor?: Actor; seal?: boolean } = {}) {
  const clock = clockAt();
  const coordinator = options.coordinator ?? createInMemoryApprovalCoordinator({ now: () => clock.now() });
  const ran: number[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, ...(options.quorum === undefined ? {} : { quorum: options.quorum }) } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const runtimeOn = (keys: (typeof K1)[] | undefined) =>
    build({
      defs: { refund },
      approvals: { coordinator, seal: options.seal === false ? false : { keys: [SEAL] }, ...(keys === undefined ? {} : { links: { keys } }) },
      now: () => clock.now(),
    });
  const { runtime, events } = runtimeOn("linkKeys" in options ? options.linkKeys : [K1]);
  const request = async (amount = 5) => approvalOf(await runtime.invoke("refund", { amount }, { actor: options.actor ?? dana, context: {} })).id;
  const decisions = () => events.filter((e) => e.type === "capability.approved" || e.type === "capability.rejected" || e.type === "capability.approval_recorded");
  return { runtime, runtimeOn, coordinator, clock, ran, request, events, decisions };
}

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  if (!CapabilityError.isInstance(error)) throw new Error(`expected a CapabilityError, got ${String(error)}`);
  return error.code;
}

// A token is `dl1.<keyId>.<payload>.<mac>`; these rewrite its signed parts and keep the MAC, as an attacker would.
function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[2]!, "base64url").toString("utf8"));
}
function withClaims(token: string, change: (claims: Record<string, unknown>) => void): string {
  const parts = token.split(".");
  const claims = claimsOf(token);
  change(claims);
  parts[2] = Buffer.from(JSON.stringify(claims), "utf8").toString("base64url");
  return parts.join(".");
}
function flipChar(text: string, at: number): string {
  const ch = text[at]!;
  return text.slice(0, at) + (ch === "A" ? "B" : "A") + text.slice(at + 1);
}

describe("signed decision links (SI-4)", () => {
  it("SI-4: a link decides once, as its approver; the audit says it came through a link and never holds the token", async () => {
    const a = app();
    const id = await a.request();
    const link = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    expect(link.token).toMatch(/^[A-Za-z0-9_.-]+$/);
    const decided = await a.runtime.approvals.decideWithLink(link.token, { comment: "ok from email" });
    expect(decided).toMatchObject({ status: "approved", decision: { approver: { id: "mo" }, comment: "ok from email" } });
    expect(await a.runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
    expect(a.ran).toEqual([5]);
    const [event] = a.decisions();
    expect(event).toMatchObject({ type: "capability.approved", data: { approvalId: id, via: "link", linkId: expect.stringMatching(/^lnk_[0-9a-f]{32}$/) } });
    expect(JSON.stringify(a.events)).not.toContain(link.token.split(".")[3]);
    expect(JSON.stringify(a.events)).not.toContain(link.token.split(".")[2]);
  });

  it("SI-4: a forged token (any flipped byte, another key, malformed) is APPROVAL_LINK_INVALID and decides nothing", async () => {
    const a = app();
    const id = await a.request();
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const parts = token.split(".");
    const forged = [
      [parts[0], parts[1], flipChar(parts[2]!, 10), parts[3]].join("."),
      [parts[0], parts[1], parts[2], flipChar(parts[3]!, 5)].join("."),
      [parts[0], "k2", parts[2], parts[3]].join("."),
      ["dl2", parts[1], parts[2], parts[3]].join("."),
      parts.slice(0, 3).join("."),
      `${token}.x`,
      token + "A",
      "",
      "dl1...",
      "x".repeat(20_000),
    ];
    // A runtime holding other keys signs a token for the same approval, approver and action: not ours.
    const other = a.runtimeOn([{ id: "k1", secret: "an-attackers-key-that-is-32-bytes-long!!" }]).runtime;
    forged.push((await other.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 })).token);
    for (const bad of forged) expect(await codeOf(a.runtime.approvals.decideWithLink(bad!))).toBe("APPROVAL_LINK_INVALID");
    expect(await codeOf(a.runtime.approvals.decideWithLink(42 as never))).toBe("APPROVAL_LINK_INVALID");
    expect((await a.coordinator.get(id))!.status).toBe("pending");
    expect(a.decisions()).toEqual([]);
  });

  it("SI-4: a replayed token is refused by the coordinator's compare-and-set, on single and quorum approvals", async () => {
    const a = app();
    const id = await a.request();
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    await a.runtime.approvals.decideWithLink(token);
    expect(await codeOf(a.runtime.approvals.decideWithLink(token))).toBe("APPROVAL_ALREADY_DECIDED");
    expect(await a.runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
    expect(await codeOf(a.runtime.approvals.decideWithLink(token))).toBe("APPROVAL_CONSUMED");

    const q = app({ quorum: 2 });
    const qid = await q.request();
    const moLink = await q.runtime.approvals.decisionLink(qid, { approver: mo, action: "approve", ttlMs: 60_000 });
    expect((await q.runtime.approvals.decideWithLink(moLink.token)).status).toBe("pending");
    // The same approver's vote again, through the link: one vote per person.
    expect(await codeOf(q.runtime.approvals.decideWithLink(moLink.token))).toBe("APPROVAL_ALREADY_DECIDED");
    expect((await q.coordinator.get(qid))!.approvals).toHaveLength(1);
    expect(errorOf(await q.runtime.resume(qid, { context: {} })).code).toBe("APPROVAL_PENDING");

    const r = app();
    const rid = await r.request();
    const reject = await r.runtime.approvals.decisionLink(rid, { approver: mo, action: "reject", ttlMs: 60_000 });
    await r.runtime.approvals.decideWithLink(reject.token);
    expect(await codeOf(r.runtime.approvals.decideWithLink(reject.token))).toBe("APPROVAL_REJECTED");
    expect([...a.ran, ...q.ran, ...r.ran]).toEqual([5]);
  });

  it("SI-4: an expired token is APPROVAL_LINK_EXPIRED; a token never outlives its approval; ttlMs must be positive", async () => {
    const a = app();
    const id = await a.request();
    const { token, expiresAt } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    expect(expiresAt.getTime()).toBe(a.clock.now().getTime() + 60_000);
    a.clock.advance(60_000);
    expect(await codeOf(a.runtime.approvals.decideWithLink(token))).toBe("APPROVAL_LINK_EXPIRED");
    expect((await a.coordinator.get(id))!.status).toBe("pending");

    const long = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 365 * 86_400_000 });
    const record = (await a.coordinator.get(id))!;
    expect(long.expiresAt.getTime()).toBe(record.expiresAt.getTime());
    a.clock.advance(record.expiresAt.getTime() - a.clock.now().getTime());
    expect(await codeOf(a.runtime.approvals.decideWithLink(long.token))).toBe("APPROVAL_LINK_EXPIRED");
    // And no link is minted for an approval past its expiry.
    expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 1 }))).toBe("APPROVAL_EXPIRED");

    const b = app();
    const bid = await b.request();
    for (const ttlMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "60000", undefined]) {
      expect(await codeOf(b.runtime.approvals.decisionLink(bid, { approver: mo, action: "approve", ttlMs: ttlMs as never }))).toBe("INPUT_INVALID");
    }
    expect(a.ran).toEqual([]);
  });

  it("SI-4: a token for approval A rewritten to name approval B (same input) is APPROVAL_LINK_INVALID; both stay pending", async () => {
    const a = app();
    const first = await a.request(7);
    const second = await a.request(7);
    const { token } = await a.runtime.approvals.decisionLink(first, { approver: mo, action: "approve", ttlMs: 60_000 });
    expect(await codeOf(a.runtime.approvals.decideWithLink(withClaims(token, (c) => void (c.a = second))))).toBe("APPROVAL_LINK_INVALID");
    expect((await a.coordinator.get(first))!.status).toBe("pending");
    expect((await a.coordinator.get(second))!.status).toBe("pending");
  });

  it("SI-4: a token whose approver is swapped (another person, the requester, the same id as another kind) is APPROVAL_LINK_INVALID", async () => {
    const a = app();
    const id = await a.request();
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    for (const approver of [ben, dana, { id: "mo", kind: "service" }, { id: "mo", kind: "user", attributes: { role: "cfo" } }]) {
      expect(await codeOf(a.runtime.approvals.decideWithLink(withClaims(token, (c) => void (c.p = approver))))).toBe("APPROVAL_LINK_INVALID");
    }
    expect((await a.coordinator.get(id))!.status).toBe("pending");
  });

  it("SI-4: an approve token turned into a reject token (and back) is APPROVAL_LINK_INVALID", async () => {
    const a = app();
    const id = await a.request();
    const approve = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const reject = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "reject", ttlMs: 60_000 });
    expect(await codeOf(a.runtime.approvals.decideWithLink(withClaims(approve.token, (c) => void (c.x = "reject"))))).toBe("APPROVAL_LINK_INVALID");
    expect(await codeOf(a.runtime.approvals.decideWithLink(withClaims(reject.token, (c) => void (c.x = "approve"))))).toBe("APPROVAL_LINK_INVALID");
    expect(await codeOf(a.runtime.approvals.decideWithLink(withClaims(approve.token, (c) => void (c.e = (c.e as number) + 3_600_000))))).toBe("APPROVAL_LINK_INVALID");
    expect((await a.coordinator.get(id))!.status).toBe("pending");
  });

  it("SI-4: no link is minted for the requester, her acting agent, someone acting through either, or an approver a quorum counts", async () => {
    const agentDana: Actor = { id: "dana", kind: "user", via: { id: "bot" } };
    const a = app({ actor: agentDana });
    const id = await a.request();
    const refused: [Actor, ErrorCode][] = [
      [dana, "APPROVAL_SELF_APPROVAL"],
      [{ id: "DANA", kind: "user" }, "APPROVAL_SELF_APPROVAL"],
      [{ id: "bot", kind: "service" }, "APPROVAL_SELF_APPROVAL"],
      [{ ...mo, via: { id: "bot" } }, "APPROVAL_SELF_APPROVAL"],
      [{ ...mo, via: { id: "dana" } }, "APPROVAL_SELF_APPROVAL"],
      [{ id: "x", kind: "anonymous" }, "UNAUTHENTICATED"],
    ];
    for (const [approver, code] of refused) {
      for (const action of ["approve", "reject"] as const) {
        expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver, action, ttlMs: 60_000 }))).toBe(code);
      }
    }
    // The answers decide gives for the same ids.
    expect(await codeOf(a.runtime.approvals.decisionLink("apr_unknown", { approver: mo, action: "approve", ttlMs: 60_000 }))).toBe(
      await codeOf(a.runtime.approvals.decide("apr_unknown", { status: "approved", approver: mo })),
    );

    const q = app({ quorum: 2 });
    const qid = await q.request();
    await q.runtime.approvals.decide(qid, { status: "approved", approver: mo });
    for (const approver of [mo, { id: "MO", kind: "user" as const }]) {
      expect(await codeOf(q.runtime.approvals.decisionLink(qid, { approver, action: "approve", ttlMs: 60_000 }))).toBe("APPROVAL_ALREADY_DECIDED");
    }
    await q.runtime.approvals.decide(qid, { status: "approved", approver: ben });
    expect(await codeOf(q.runtime.approvals.decisionLink(qid, { approver: { id: "ana", kind: "user" }, action: "approve", ttlMs: 60_000 }))).toBe("APPROVAL_ALREADY_DECIDED");
    expect([...a.ran, ...q.ran]).toEqual([]);
  });

  it("SI-4: a link used after the approval was decided elsewhere is refused as decide refuses it; nothing runs twice", async () => {
    const a = app();
    const rejected = await a.request();
    const toApprove = await a.runtime.approvals.decisionLink(rejected, { approver: mo, action: "approve", ttlMs: 60_000 });
    await a.runtime.approvals.decide(rejected, { status: "rejected", approver: ben });
    expect(await codeOf(a.runtime.approvals.decideWithLink(toApprove.token))).toBe("APPROVAL_REJECTED");

    const approved = await a.request();
    const toReject = await a.runtime.approvals.decisionLink(approved, { approver: mo, action: "reject", ttlMs: 60_000 });
    await a.runtime.approvals.decide(approved, { status: "approved", approver: ben });
    expect(await codeOf(a.runtime.approvals.decideWithLink(toReject.token))).toBe("APPROVAL_ALREADY_DECIDED");
    expect(await a.runtime.resume(approved, { context: {} })).toMatchObject({ status: "completed" });
    expect(await codeOf(a.runtime.approvals.decideWithLink(toReject.token))).toBe("APPROVAL_CONSUMED");
    expect(a.ran).toEqual([5]);
  });

  it("SI-4: a token whose approval was re-bound to another input since is APPROVAL_LINK_INVALID", async () => {
    const store = tamperable();
    const a = app({ coordinator: store.coordinator, seal: false });
    const id = await a.request();
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    store.set((record) => ({ ...record, input: { amount: 500 }, inputHash: "0".repeat(64) }));
    expect(await codeOf(a.runtime.approvals.decideWithLink(token))).toBe("APPROVAL_LINK_INVALID");
    store.set(undefined);
    expect((await a.coordinator.get(id))!.status).toBe("pending");
  });

  it("SI-4: rotation: a token signed by a key still listed verifies; once the key is rotated out it is APPROVAL_LINK_INVALID", async () => {
    const a = app({ linkKeys: [K1] });
    const id = await a.request();
    const old = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const rotating = a.runtimeOn([K2, K1]).runtime;
    const fresh = await rotating.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    expect(fresh.token.split(".")[1]).toBe("k2");
    // The old key alone does not know the new key's tokens.
    expect(await codeOf(a.runtime.approvals.decideWithLink(fresh.token))).toBe("APPROVAL_LINK_INVALID");
    const rotatedOut = a.runtimeOn([K2]).runtime;
    expect(await codeOf(rotatedOut.approvals.decideWithLink(old.token))).toBe("APPROVAL_LINK_INVALID");
    expect((await a.coordinator.get(id))!.status).toBe("pending");
    expect((await rotating.approvals.decideWithLink(old.token)).status).toBe("approved");
  });

  it("SI-4: an approver whose getters or Proxy traps answer differently on each read: the token carries the approver the guards judged", async () => {
    const a = app();
    const id = await a.request();
    // Judged as mo, then would read as dana: the token must carry mo.
    let reads = 0;
    const turning = { kind: "user", get id() { return reads++ === 0 ? "mo" : "dana"; } };
    const link = await a.runtime.approvals.decisionLink(id, { approver: turning as unknown as Actor, action: "approve", ttlMs: 60_000 });
    expect(claimsOf(link.token).p).toEqual({ id: "mo", kind: "user" });
    // A request whose approver getter answers dana first, mo after: refused as dana, never minted as mo.
    let requestReads = 0;
    const request = { action: "approve", ttlMs: 60_000, get approver() { return requestReads++ === 0 ? dana : mo; } };
    expect(await codeOf(a.runtime.approvals.decisionLink(id, request as never))).toBe("APPROVAL_SELF_APPROVAL");
    // A Proxy whose trap answers mo on the first read of `id` and dana on every later one.
    let trapReads = 0;
    const flipping = new Proxy({ id: "mo", kind: "user" } as Record<string, unknown>, { get: (t, k) => (k === "id" ? (trapReads++ === 0 ? "mo" : "dana") : t[k as string]) });
    const proxied = await a.runtime.approvals.decisionLink(id, { approver: flipping as never, action: "reject", ttlMs: 60_000 });
    expect(claimsOf(proxied.token).p).toEqual({ id: "mo", kind: "user" });
    expect(trapReads).toBe(1);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver: proxy as never, action: "approve", ttlMs: 60_000 }))).toBe("UNAUTHENTICATED");
    // An approver too large to carry in a URL is refused, not truncated.
    const huge = { ...mo, attributes: { note: "x".repeat(10_000) } };
    expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver: huge, action: "approve", ttlMs: 60_000 }))).toBe("INPUT_INVALID");
    const throwing = { approver: mo, ttlMs: 60_000, get action(): string { throw new Error("boom"); } };
    expect(await codeOf(a.runtime.approvals.decisionLink(id, throwing as never))).toBe("INPUT_INVALID");
    const decided = await a.runtime.approvals.decideWithLink(link.token);
    expect(decided.decision!.approver).toEqual({ id: "mo", kind: "user" });
  });

  it("SI-4: links need their own keys: a secret shared with the seal or shorter than 32 bytes is refused at startup; without keys links are refused", async () => {
    expect(() => app({ linkKeys: [{ id: "k1", secret: SEAL.secret }] })).toThrow(/seal key "s1"/);
    expect(() => app({ linkKeys: [{ id: "k1", secret: "short" }] })).toThrow(/at least 32 bytes/);
    expect(() => app({ linkKeys: [] })).toThrow(TypeError);
    const a = app({ linkKeys: undefined });
    const id = await a.request();
    expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 }))).toBe("APPROVAL_LINKS_DISABLED");
    expect(await codeOf(a.runtime.approvals.decideWithLink("dl1.k1.e30.x"))).toBe("APPROVAL_LINKS_DISABLED");
  });
});

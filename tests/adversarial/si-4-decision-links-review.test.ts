// Review of signed decision links (issue 50, item 2; docs/guides/decision-links.md): a link is one more way to call
// `decide`, never a weaker one. These attacks look for a second valid spelling of a genuine token (an app that records
// used or revoked tokens by their text must not be bypassed), a link minted for the requester under another spelling of
// her id, a link outliving the approval it names through a re-request, and the answers at the token's edges.
import { CapabilityError, createInMemoryApprovalCoordinator, type Actor, type ErrorCode } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { clockAt } from "./support/approval-stores.js";
import { useApprovalsSchema } from "./support/approvals-schema.js";
import { approvalOf, base, build, dana, errorOf, meta, mo } from "./support/runtime.js";

const ben: Actor = Object.freeze({ id: "ben", kind: "user" });
const K1 = { id: "k1", secret: "links-key-one-that-is-at-least-32-bytes!" };
const SEAL = { id: "s1", secret: "seal-key-that-is-also-at-least-32-bytes!" };
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function app(options: { quorum?: number } = {}) {
  const clock = clockAt();
  const coordinator = createInMemoryApprovalCoordinator({ now: () => clock.now() });
  const ran: number[] = [];
  const refund = base
    .meta({ agent: meta({ approval: { required: true, ...(options.quorum === undefined ? {} : { quorum: options.quorum }) } }) })
    .input(z.object({ amount: z.number() }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const { runtime } = build({ defs: { refund }, approvals: { coordinator, seal: { keys: [SEAL] }, links: { keys: [K1] } }, now: () => clock.now() });
  const request = async (amount = 5) => approvalOf(await runtime.invoke("refund", { amount }, { actor: dana, context: {} })).id;
  return { runtime, coordinator, clock, ran, request };
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

/** The other spellings of a base64url text that a lenient decoder reads as the same bytes (the unused low bits of its last character). */
function respellings(text: string): string[] {
  const last = B64URL.indexOf(text.at(-1)!);
  const bits = (text.length * 6) % 8; // bits of the last character that belong to no byte
  const out: string[] = [];
  for (let low = 1; low < 1 << bits; low++) out.push(text.slice(0, -1) + B64URL[(last & ~((1 << bits) - 1)) | low]!);
  return out;
}

describe("signed decision links, reviewed (SI-4)", () => {
  it("SI-4: a token has exactly one valid spelling: a MAC re-spelled in its unused bits is APPROVAL_LINK_INVALID and decides nothing", async () => {
    const a = app();
    const id = await a.request();
    const { token } = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const parts = token.split(".");
    const variants = respellings(parts[3]!).map((mac) => [...parts.slice(0, 3), mac].join("."));
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      expect(variant).not.toBe(token);
      expect(await codeOf(a.runtime.approvals.decideWithLink(variant))).toBe("APPROVAL_LINK_INVALID");
    }
    // Padding, the standard alphabet, or whitespace around a part: none is another spelling of the token either.
    const padded = [...parts.slice(0, 3), `${parts[3]}=`].join(".");
    const standard = token.replace(/-/g, "+").replace(/_/g, "/");
    for (const other of [padded, ` ${token}`, `${token}\n`, `${parts[0]}.${parts[1]}.${parts[2]}=.${parts[3]}`]) {
      expect(await codeOf(a.runtime.approvals.decideWithLink(other))).toBe("APPROVAL_LINK_INVALID");
    }
    if (standard !== token) expect(await codeOf(a.runtime.approvals.decideWithLink(standard))).toBe("APPROVAL_LINK_INVALID");
    expect((await a.coordinator.get(id))!.status).toBe("pending");
    // The token as minted still works, once.
    expect((await a.runtime.approvals.decideWithLink(token)).status).toBe("approved");
  });

  it("SI-4: no link is minted for the requester under another spelling of her id (case, compatibility form, whitespace, invisible characters)", async () => {
    const a = app();
    const id = await a.request();
    const spellings = ["Dana", " dana", "dana\t", "ｄａｎａ", "da\u00ADna", "dan\u200Ba", "\uFEFFdana", "DANA\u2060"];
    for (const spelling of spellings) {
      for (const action of ["approve", "reject"] as const) {
        expect(await codeOf(a.runtime.approvals.decisionLink(id, { approver: { id: spelling, kind: "user" }, action, ttlMs: 60_000 }))).toBe("APPROVAL_SELF_APPROVAL");
      }
      // And decide answers the same.
      expect(await codeOf(a.runtime.approvals.decide(id, { status: "approved", approver: { id: spelling, kind: "user" } }))).toBe("APPROVAL_SELF_APPROVAL");
    }
    expect((await a.coordinator.get(id))!.status).toBe("pending");
  });

  it("SI-4: on a quorum of 2, links minted for two spellings of one approver count one vote", async () => {
    const q = app({ quorum: 2 });
    const id = await q.request();
    const first = await q.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const second = await q.runtime.approvals.decisionLink(id, { approver: { id: "ＭＯ ", kind: "user" }, action: "approve", ttlMs: 60_000 });
    expect((await q.runtime.approvals.decideWithLink(first.token)).status).toBe("pending");
    expect(await codeOf(q.runtime.approvals.decideWithLink(second.token))).toBe("APPROVAL_ALREADY_DECIDED");
    expect((await q.coordinator.get(id))!.approvals).toHaveLength(1);
    expect(q.ran).toEqual([]);
  });

  it("SI-4: a link for an approval that was consumed and re-requested never decides the fresh request", async () => {
    const a = app();
    const id = await a.request();
    const approve = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
    const reject = await a.runtime.approvals.decisionLink(id, { approver: ben, action: "reject", ttlMs: 60_000 });
    await a.runtime.approvals.decideWithLink(approve.token);
    expect(await a.runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
    const fresh = await a.runtime.approvals.reRequest(id, { operator: ben, reason: "execution never started" });
    expect(fresh.id).toBe(`${id}.r`);
    for (const token of [approve.token, reject.token]) expect(await codeOf(a.runtime.approvals.decideWithLink(token))).toBe("APPROVAL_CONSUMED");
    expect((await a.coordinator.get(fresh.id))!.status).toBe("pending");
    expect(a.ran).toEqual([5]);
  });

  it("SI-4: a huge ttlMs is capped at the approval's expiry; a fractional one mints a link that expires, never one its own verifier reads as forged", async () => {
    const a = app();
    const id = await a.request();
    const record = (await a.coordinator.get(id))!;
    const huge = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: Number.MAX_VALUE });
    expect(huge.expiresAt.getTime()).toBe(record.expiresAt.getTime());
    for (const ttlMs of [Number.MIN_VALUE, 0.5]) {
      // A positive ttl shorter than a millisecond is still a link, already past by the next tick of the clock.
      const tiny = await a.runtime.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs });
      a.clock.advance(1);
      expect(await codeOf(a.runtime.approvals.decideWithLink(tiny.token))).toBe("APPROVAL_LINK_EXPIRED");
    }
    expect((await a.coordinator.get(id))!.status).toBe("pending");
  });
});

describe("signed decision links across PostgreSQL instances, reviewed (SI-4)", () => {
  const db = useApprovalsSchema("orpc_adv_links_review");
  const LINKS = { keys: [K1] };

  function instance(ran: number[]) {
    const refund = base
      .meta({ agent: meta({ approval: { required: true, quorum: 2 } }) })
      .input(z.object({ amount: z.number() }))
      .handler(({ input }) => (ran.push(input.amount), "refunded"));
    const coordinator = createPgApprovalCoordinator({ query: db.query });
    return build({ defs: { refund }, approvals: { coordinator, seal: { keys: [SEAL] }, links: LINKS } }).runtime;
  }

  it("SI-4: links for two spellings of one approver, opened at once on two instances, never let one person run a quorum-of-2 call", async () => {
    const ran: number[] = [];
    const a = instance(ran);
    const b = instance(ran);
    for (let round = 0; round < 6; round++) {
      const id = approvalOf(await a.invoke("refund", { amount: round }, { actor: dana, context: {} })).id;
      const one = await a.approvals.decisionLink(id, { approver: mo, action: "approve", ttlMs: 60_000 });
      const other = await b.approvals.decisionLink(id, { approver: { id: round % 2 === 0 ? "MO" : "ｍｏ\u200B", kind: "user" }, action: "approve", ttlMs: 60_000 });
      await Promise.allSettled([a.approvals.decideWithLink(one.token), b.approvals.decideWithLink(other.token)]);
      const record = (await a.approvals.get(id))!;
      // As with decide (si-4-quorum-confusable-on-postgres): the store compares ids exactly, so both links may race past
      // the pre-check and be counted; resume then refuses the record. Either way one person never runs the call.
      const resumed = await a.resume(id, { context: {} });
      if (record.status === "pending") {
        expect(record.approvals).toHaveLength(1);
        expect(errorOf(resumed).code).toBe("APPROVAL_PENDING");
      } else {
        expect(record.status).toBe("approved");
        expect(errorOf(resumed).code).toBe("INTERNAL_ERROR");
      }
    }
    expect(ran).toEqual([]);
  });
});

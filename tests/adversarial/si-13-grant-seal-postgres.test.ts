// SI-13 with `approvals.seal` on the real PostgreSQL server: a grant row edited in SQL (more uses, other conditions,
// another actor, any other term) or minted there covers nothing and reads as unknown, because the store returns the
// row as stored and the runtime checks its seal. Without a seal the same edit covers: the attack the seal stops.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { Actor, ApprovalSealOptions } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";
import { GRANTS_TABLE, useGrantsSchema } from "./support/grants-on-postgres.js";

const db = useGrantsSchema("orpc_adv_si13_seal");
const instance = db.instance(4);
const table = GRANTS_TABLE;
const KEY = { id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" };
const HOUR = 3_600_000;
const priya: Actor = { id: "priya", kind: "user" };
const mallory: Actor = { id: "mallory", kind: "user" };
const CHAT = "chat_ada_1";

let apps = 0;

/**
 * A refund opting into grants, a runtime over the PostgreSQL coordinator, and a grant for dana in one conversation:
 * 2 uses, refunds to c_ada, 50 at most. Each app refunds under its own capability id, so no other test's grant can
 * cover its calls.
 */
async function app(seal: ApprovalSealOptions | false) {
  apps += 1;
  const capabilityId = `refund${apps}`;
  const ran: { actor: string; customerId: string; amount: number }[] = [];
  const refund = base
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta({ agent: meta({ approval: { required: true, type: "manager", grants: { maxUses: 100, maxTtlMs: HOUR, scopes: ["conversation", "actor"] } } }) })
    .handler(({ input, context }) => {
      ran.push({ actor: context.agent!.actor.id, ...input });
      return "refunded";
    });
  const coordinator = createPgApprovalCoordinator({ query: instance.query });
  const { runtime } = build({ defs: { [capabilityId]: refund }, approvals: { coordinator, seal } });
  const issued = await runtime.grants.issue({
    capabilityId,
    actor: dana,
    surface: "direct",
    conversationId: CHAT,
    issuers: [priya],
    grant: { uses: 2, ttlMs: HOUR, scope: "conversation", conditions: [{ path: "/customerId", op: "eq", value: "c_ada" }], budget: { path: "/amount", max: 50 } },
  });
  const call = (input: { customerId: string; amount: number }, actor: Actor = dana, conversationId = CHAT) =>
    runtime.invoke(capabilityId, input, { actor, context: {}, conversationId });
  return { runtime, coordinator, issued, ran, call, capabilityId };
}

const ADA = { customerId: "c_ada", amount: 10 };

// Each edit and a call it would let through if the row were trusted (the untouched grant would refuse that call).
const edits: [string, string, unknown[], { input?: typeof ADA; actor?: Actor; conversationId?: string }][] = [
  ["more uses", `update ${table} set uses = 40, uses_left = 40 where id = $1`, [], {}],
  ["other conditions (another customer)", `update ${table} set conditions = '[{"path":"/customerId","op":"eq","value":"c_mallory"}]'::jsonb where id = $1`, [], { input: { customerId: "c_mallory", amount: 10 } }],
  ["no conditions", `update ${table} set conditions = '[]'::jsonb where id = $1`, [], { input: { customerId: "c_mallory", amount: 10 } }],
  ["another actor", `update ${table} set actor = '{"id":"mallory","kind":"user"}'::jsonb where id = $1`, [], { actor: mallory }],
  ["another acting agent", `update ${table} set actor = '{"id":"dana","kind":"user","via":{"id":"evil-bot"}}'::jsonb where id = $1`, [], { actor: { ...dana, via: { id: "evil-bot" } } }],
  ["another conversation", `update ${table} set conversation_id = 'chat_evil' where id = $1`, [], { conversationId: "chat_evil" }],
  ["scope widened to the actor", `update ${table} set scope = 'actor', conversation_id = null where id = $1`, [], { conversationId: "chat_evil" }],
  ["a bigger budget", `update ${table} set budget_max = 5000 where id = $1`, [], { input: { customerId: "c_ada", amount: 500 } }],
  ["a later expiry", `update ${table} set expires_at = expires_at + interval '30 days' where id = $1`, [], {}],
  ["extra types", `update ${table} set types = '["manager","cfo"]'::jsonb where id = $1`, [], {}],
  ["another surface", `update ${table} set surface = 'mcp' where id = $1`, [], {}],
  ["another issuer", `update ${table} set issuers = '[{"id":"mallory","kind":"user"}]'::jsonb where id = $1`, [], {}],
  ["another definition digest", `update ${table} set definition_digest = $2 where id = $1`, [`sha256:${"0".repeat(64)}`], {}],
  ["the seal removed", `update ${table} set seal = null where id = $1`, [], {}],
  ["a forged seal", `update ${table} set seal = $2 where id = $1`, [`v1.k1.${"A".repeat(43)}`], {}],
];

describe("SI-13: an edited grant row in PostgreSQL covers nothing", () => {
  it("SI-13: an untouched sealed grant covers calls inside its terms, and only those", async () => {
    const a = await app({ keys: [KEY] });
    expect(a.issued.seal).toMatch(/^v1\.k1\./);
    expect((await a.call(ADA)).status).toBe("completed");
    expect((await a.call({ customerId: "c_mallory", amount: 10 })).status).toBe("approval-required");
    expect((await a.call(ADA, mallory)).status).toBe("approval-required");
    expect((await a.call(ADA, dana, "chat_evil")).status).toBe("approval-required");
    expect(a.ran).toEqual([{ actor: "dana", customerId: "c_ada", amount: 10 }]);
  });

  for (const [what, sql, params, attack] of edits) {
    it(`SI-13: ${what} edited in SQL: the grant covers nothing, not even calls inside its original terms, and reads as unknown`, async () => {
      const a = await app({ keys: [KEY] });
      await db.admin().query(sql, [a.issued.id, ...params]);
      expect((await a.call(attack.input ?? ADA, attack.actor ?? dana, attack.conversationId ?? CHAT)).status).toBe("approval-required");
      expect((await a.call(ADA)).status).toBe("approval-required");
      expect(a.ran).toEqual([]);
      expect(await a.runtime.grants.get(a.issued.id)).toBeNull();
      expect(await a.runtime.grants.list({ capabilityId: a.capabilityId })).toEqual([]);
    });
  }

  it("SI-13: a seal copied from another grant onto an edited row does not verify", async () => {
    const a = await app({ keys: [KEY] });
    const other = await a.runtime.grants.issue({ capabilityId: a.capabilityId, actor: mallory, surface: "direct", issuers: [priya], grant: { uses: 50, ttlMs: HOUR, scope: "actor" } });
    // The other grant's row stays as issued; this one takes its seal and widens itself.
    await db.admin().query(`update ${table} set seal = $2, conditions = '[]'::jsonb where id = $1`, [a.issued.id, other.seal]);
    expect((await a.call({ customerId: "c_mallory", amount: 10 })).status).toBe("approval-required");
    expect((await a.call(ADA)).status).toBe("approval-required");
    expect(a.ran).toEqual([]);
  });

  it("SI-13: a grant row minted in SQL (no runtime seal) covers nothing", async () => {
    const a = await app({ keys: [KEY] });
    await a.runtime.grants.revoke(a.issued.id, { by: priya });
    await db.admin().query(
      `insert into ${table} (id, capability_id, definition_digest, actor, surface, scope, types, conditions, uses, uses_left, issuers, issued_at, expires_at)
       select 'grt_minted', capability_id, definition_digest, actor, surface, 'actor', types, '[]'::jsonb, 50, 50, issuers, issued_at, expires_at
       from ${table} where id = $1`,
      [a.issued.id],
    );
    expect((await a.call(ADA)).status).toBe("approval-required");
    expect(await a.runtime.grants.get("grt_minted")).toBeNull();
    expect(a.ran).toEqual([]);
  });

  it("SI-13: without a seal, the actor edited in SQL lets mallory's refund run under dana's grant (the attack the seal stops)", async () => {
    const a = await app(false);
    await db.admin().query(edits[3]![1], [a.issued.id]);
    expect((await a.call(ADA, mallory)).status).toBe("completed");
    expect(a.ran).toEqual([{ actor: "mallory", customerId: "c_ada", amount: 10 }]);
  });

  it("SI-13 limit: the seal binds the terms, not the counters: a writer who resets uses_left within the sealed uses re-opens them (only the app may write the table)", async () => {
    const a = await app({ keys: [KEY] });
    expect((await a.call(ADA)).status).toBe("completed");
    expect((await a.call(ADA)).status).toBe("completed");
    expect((await a.call(ADA)).status).toBe("approval-required");
    // Never past the sealed `uses`: the table's check refuses more, and a wider `uses` fails the seal (above).
    await expect(db.admin().query(`update ${table} set uses_left = 3 where id = $1`, [a.issued.id])).rejects.toThrow(/check constraint/);
    await db.admin().query(`update ${table} set uses_left = 2, budget_spent = 0 where id = $1`, [a.issued.id]);
    expect((await a.call(ADA)).status).toBe("completed");
    expect(a.ran).toHaveLength(3);
  });
});

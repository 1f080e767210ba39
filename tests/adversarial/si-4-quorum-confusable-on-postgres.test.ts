// SI-4 on the real server: one approver deciding concurrently under several spellings of their id ("mo", "MO",
// "mo\u200b", fullwidth) passes the runtime's pre-checks together and the Postgres coordinator, which compares ids
// exactly, may count them all. Whatever the interleaving, one person never completes a quorum of two: the request
// stays pending for a second person, or resume refuses the record and nothing runs.
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import type { Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalOf, base, build, dana, errorOf, meta } from "./support/runtime.js";
import { useApprovalsSchema } from "./support/approvals-schema.js";

const db = useApprovalsSchema("orpc_adv_confusable");
const SPELLINGS = ["mo", "MO", "Mo", "mo\u200b", "\uff4d\uff4f", " mo"];
const user = (id: string): Actor => ({ id, kind: "user" });

function app(sealed: boolean) {
  const ran = { count: 0 };
  const op = base
    .meta({ agent: meta({ approval: { required: true, quorum: 2 } }) })
    .input(z.object({ amount: z.number() }))
    .handler(() => (ran.count++, "paid"));
  const coordinator = createPgApprovalCoordinator({ query: db.query });
  const seal = sealed ? { keys: [{ id: "k1", secret: "k1-secret-that-is-long-enough-for-hmac!!" }] } : false;
  const { runtime } = build({ defs: { op }, approvals: { coordinator, seal } });
  return { runtime, coordinator, ran };
}

describe("confusable approver ids on the real Postgres store (SI-4)", () => {
  for (const sealed of [false, true]) {
    it(`SI-4: concurrent votes by six spellings of one approver never complete a quorum of 2 (${sealed ? "sealed" : "unsealed"})`, async () => {
      for (let round = 0; round < 5; round++) {
        const { runtime, coordinator, ran } = app(sealed);
        const { id } = approvalOf(await runtime.invoke("op", { amount: 5 }, { actor: dana, context: {} }));
        await Promise.allSettled(SPELLINGS.map((spelling) => runtime.approvals.decide(id, { status: "approved", approver: user(spelling) })));
        const record = (await coordinator.get(id))!;
        if (record.status === "pending") {
          // The pre-check saw every vote after the first: one counted, the request waits for a second person.
          expect(record.approvals).toHaveLength(1);
          expect(errorOf(await runtime.resume(id, { context: {} })).code).toBe("APPROVAL_PENDING");
          await runtime.approvals.decide(id, { status: "approved", approver: user("ana") });
          expect(await runtime.resume(id, { context: {} })).toMatchObject({ status: "completed" });
          expect(ran.count).toBe(1);
        } else {
          // Votes raced past the pre-check and the store counted spellings as people: resume refuses, nothing runs.
          expect(record.status).toBe("approved");
          const refused = errorOf(await runtime.resume(id, { context: {} }));
          expect(refused.code).toBe("INTERNAL_ERROR");
          expect(ran.count).toBe(0);
          expect((await coordinator.get(id))!.status).toBe("approved");
        }
      }
    });
  }
});

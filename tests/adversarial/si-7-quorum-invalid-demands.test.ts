// SI-7 for quorum demands (issue 30 part 2): a policy answering require-approval with a quorum that is no whole
// number of people (a string, a fraction, zero, negative, NaN, infinite, beyond safe integers) fails closed; it never
// falls back to one approver, and no request is stored.
import { createInMemoryApprovalCoordinator, definePolicy, type PolicyDecision } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { base, build, dana, errorOf, meta } from "./support/runtime.js";

// No startup warning is expected; capturing still fails the file on any stray console.warn.
captureStartupWarnings([]);

describe("invalid quorum demands (SI-7)", () => {
  for (const quorum of ["2", 1.5, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, null]) {
    it(`SI-7: a policy demanding quorum ${String(quorum)} fails with POLICY_FAILED and stores no request`, async () => {
      const ran = { count: 0 };
      const op = base.meta({ agent: meta() }).handler(() => (ran.count++, "done"));
      const coordinator = createInMemoryApprovalCoordinator();
      const odd = definePolicy("odd-quorum", () => ({ type: "require-approval", reason: "Check.", quorum }) as unknown as PolicyDecision);
      const { runtime } = build({ defs: { op }, policies: [odd], approvals: { coordinator } });
      expect(errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} })).code).toBe("POLICY_FAILED");
      expect(ran.count).toBe(0);
      expect(await coordinator.list()).toEqual([]);
    });
  }
});

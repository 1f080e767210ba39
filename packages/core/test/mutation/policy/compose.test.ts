// Raised from the mutation run: a composite's direct evaluate (docs/architecture/spec/core.md#core-3) rethrows its member's own error.
import { describe, expect, it } from "vitest";
import { composePolicies } from "../../../src/policy/compose.js";
import { allow, deny } from "../../../src/policy/decisions.js";
import { definePolicy } from "../../../src/policy/define-policy.js";
import { refundRequest } from "../../policy/refund-request.js";

const request = refundRequest();

describe("composite evaluate", () => {
  it("rethrows the first member's own error", async () => {
    const boom = new Error("boom");
    const composite = composePolicies(
      definePolicy("a", () => {
        throw boom;
      }),
      definePolicy("b", () => {
        throw new Error("second");
      }),
    );
    await expect(composite.evaluate(request)).rejects.toBe(boom);
  });

  it("still returns a deny over allows", async () => {
    await expect(composePolicies(definePolicy("a", () => allow()), definePolicy("d", () => deny("NO"))).evaluate(request)).resolves.toStrictEqual({
      type: "deny",
      code: "NO",
    });
  });
});

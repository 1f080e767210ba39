// The conformance suite never skips: a harness may declare a check not applicable only where the suite states what
// must hold instead (C11). Declaring any other check is refused before a single test is registered.
import { describe, expect, it } from "vitest";
import { describeAdapterConformance, type ConformanceHarness } from "../../../test-fixtures/conformance.js";

const neverBuilt = async (): Promise<ConformanceHarness> => {
  throw new Error("the harness is never built when the options are refused");
};

describe("conformance: not applicable", () => {
  it("refuses a check without a stated alternative, naming the harness and the check", () => {
    expect(() => describeAdapterConformance("sloppy", neverBuilt, { notApplicable: { C6: "too hard" } })).toThrow(
      "conformance: sloppy declares C6 not applicable, but C6 has no stated alternative and must pass.",
    );
  });
});

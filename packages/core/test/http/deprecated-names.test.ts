// The old `Http` spellings stay as aliases of the upper-case names until the next major.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createHTTPCapabilityClient,
  createHttpCapabilityClient,
  type HTTPCapabilityClientOptions,
  type HttpCapabilityClientOptions,
} from "../../src/http/index.js";

describe("@orpc-agent/core/http deprecated names", () => {
  it("createHttpCapabilityClient is createHTTPCapabilityClient, and its options type is the same type", () => {
    expect(createHttpCapabilityClient).toBe(createHTTPCapabilityClient);
    expectTypeOf<HttpCapabilityClientOptions>().toEqualTypeOf<HTTPCapabilityClientOptions>();
  });
});

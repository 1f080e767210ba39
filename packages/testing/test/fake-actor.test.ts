import { describe, expect, it } from "vitest";
import { fakeActor } from "../src/index.js";

describe("fakeActor", () => {
  it("is a well-formed user actor named test-user by default", () => {
    expect(fakeActor()).toEqual({ id: "test-user", kind: "user" });
  });

  it("replaces any field given and returns a new object each time", () => {
    expect(fakeActor({ id: "svc_sync", kind: "service", attributes: { team: "ops" } })).toEqual({
      id: "svc_sync",
      kind: "service",
      attributes: { team: "ops" },
    });
    expect(fakeActor({ displayName: "Dana" })).toEqual({ id: "test-user", kind: "user", displayName: "Dana" });
    expect(fakeActor()).not.toBe(fakeActor());
  });
});

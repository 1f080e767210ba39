import { describe, expect, it } from "vitest";
import { readApprovedWithChanges } from "../../src/client/index.js";

// What a client accepts as "the approver changed these": pointers only, read as untrusted wire data.
describe("readApprovedWithChanges", () => {
  it("absent is undefined; a well-formed value is copied", () => {
    expect(readApprovedWithChanges(undefined)).toBeUndefined();
    const changed = ["/amount", "/a~1b/0", "/~0tilde", ""];
    const read = readApprovedWithChanges({ changed });
    expect(read).toEqual({ changed });
    expect(read!.changed).not.toBe(changed);
    expect(readApprovedWithChanges({ changed: [] })).toEqual({ changed: [] });
  });

  it("anything but exactly { changed: pointer[] } is null: values beside the pointers, non-pointers, other shapes", () => {
    const sparse: unknown[] = ["/a"];
    sparse[2] = "/c";
    const hostile = {
      get changed(): string[] {
        throw new Error("boom");
      },
    };
    for (const [index, forged] of [
      null,
      "/amount",
      ["/amount"],
      {},
      { changed: "/amount" },
      { changed: [1] },
      { changed: ["amount"] },
      { changed: ["/a~2"] },
      { changed: ["/a~"] },
      { changed: ["/amount"], before: { amount: 320 } },
      { changed: ["/amount"], values: ["320"] },
      { changed: sparse },
      hostile,
    ].entries()) {
      expect(readApprovedWithChanges(forged), `case ${index}`).toBeNull();
    }
  });
});

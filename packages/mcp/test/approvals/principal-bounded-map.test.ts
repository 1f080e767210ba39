// The memory the endpoint keeps for principals between requests: each principal's share, then the total, where the
// largest holder gives way first.
import { describe, expect, it } from "vitest";
import { PrincipalBoundedMap } from "../../src/approvals/principal-bounded-map.js";

/** Which of `keys` each principal still holds. */
function held(map: PrincipalBoundedMap<number>, keys: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(keys).map(([principal, list]) => [principal, list.filter((key) => map.get(principal, key) !== undefined)]));
}

describe("PrincipalBoundedMap", () => {
  it("a principal past its share loses its own least recently set entry, never another principal's", () => {
    const map = new PrincipalBoundedMap<number>({ perPrincipal: 2, total: 100 });
    map.set("alice", "a1", 1);
    for (let i = 0; i < 50; i++) map.set("mallory", `m${i}`, i);
    expect(held(map, { alice: ["a1"], mallory: ["m0", "m47", "m48", "m49"] })).toEqual({ alice: ["a1"], mallory: ["m48", "m49"] });
  });

  it("setting a key again refreshes it: the principal's other entry goes first", () => {
    const map = new PrincipalBoundedMap<number>({ perPrincipal: 2, total: 100 });
    map.set("alice", "a1", 1);
    map.set("alice", "a2", 2);
    map.set("alice", "a1", 3);
    map.set("alice", "a3", 4);
    expect(map.get("alice", "a1")).toBe(3);
    expect(held(map, { alice: ["a1", "a2", "a3"] })).toEqual({ alice: ["a1", "a3"] });
  });

  it("past the total, the principal holding the most gives way; among equals, the least recently set", () => {
    const map = new PrincipalBoundedMap<number>({ perPrincipal: 3, total: 4 });
    map.set("alice", "a1", 1);
    map.set("bob", "b1", 1);
    map.set("bob", "b2", 2);
    map.set("carol", "c1", 1);
    map.set("carol", "c2", 2);
    // Five entries: bob and carol hold two each, bob reached two first.
    expect(held(map, { alice: ["a1"], bob: ["b1", "b2"], carol: ["c1", "c2"] })).toEqual({ alice: ["a1"], bob: ["b2"], carol: ["c1", "c2"] });
    map.set("dave", "d1", 1);
    expect(held(map, { alice: ["a1"], bob: ["b2"], carol: ["c1", "c2"], dave: ["d1"] })).toEqual({ alice: ["a1"], bob: ["b2"], carol: ["c2"], dave: ["d1"] });
  });

  it("one entry each: past the total the least recently set principal gives way, and setting again counts as recent", () => {
    const map = new PrincipalBoundedMap<number>({ perPrincipal: 1, total: 2 });
    map.set("alice", "k", 1);
    map.set("bob", "k", 1);
    map.set("alice", "k", 2);
    map.set("carol", "k", 1);
    expect(held(map, { alice: ["k"], bob: ["k"], carol: ["k"] })).toEqual({ alice: ["k"], bob: [], carol: ["k"] });
  });

  it("a deleted entry frees its place in its principal's share and in the total", () => {
    const map = new PrincipalBoundedMap<number>({ perPrincipal: 2, total: 2 });
    map.set("alice", "a1", 1);
    map.set("alice", "a2", 2);
    map.delete("alice", "a1");
    map.delete("alice", "nothing");
    map.delete("nobody", "a2");
    map.set("bob", "b1", 1);
    expect(held(map, { alice: ["a1", "a2"], bob: ["b1"] })).toEqual({ alice: ["a2"], bob: ["b1"] });
    map.set("alice", "a3", 3);
    expect(held(map, { alice: ["a2", "a3"], bob: ["b1"] })).toEqual({ alice: ["a3"], bob: ["b1"] });
  });
});

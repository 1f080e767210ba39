import { describe, expect, it } from "vitest";
import { parseSnapshot } from "../../src/snapshot/parse-snapshot.js";
import { snapshotJson } from "../../src/snapshot/snapshot-json.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

const v3 = snapshot([entry("accounts.close", { discovery: "contextual" })], {
  excluded: ["health.ping"],
  runtime: { policies: [policy("tenant-guard", { scope: { surfaces: ["mcp"] }, candidates: ["accounts.close"] })] },
});

function without<T extends object>(value: T, key: string): T {
  const copy = { ...value } as Record<string, unknown>;
  delete copy[key];
  return copy as T;
}

describe("parseSnapshot: versions (cli.md §6.3)", () => {
  it("reads v3 as written", () => {
    expect(parseSnapshot(snapshotJson(v3))).toEqual(v3);
  });

  it("v1: ignores runtime (never observed) and reads discovery as discoverable", () => {
    const v1 = { ...v3, version: 1, capabilities: v3.capabilities.map((c) => without(c, "discovery")) };
    const parsed = parseSnapshot(JSON.stringify(v1));
    expect(parsed.version).toBe(1);
    expect(parsed).not.toHaveProperty("runtime");
    expect(parsed.capabilities[0]?.discovery).toBe("discoverable");
  });

  it("v2: keeps runtime policies with unknown scope and reads discovery as discoverable", () => {
    const v2 = {
      ...v3,
      version: 2,
      capabilities: v3.capabilities.map((c) => without(c, "discovery")),
      runtime: { policies: [{ name: "tenant-guard", phases: ["invocation"] }] },
    };
    const parsed = parseSnapshot(JSON.stringify(v2));
    expect(parsed.runtime).toEqual({ policies: [{ name: "tenant-guard", phases: ["invocation"] }] });
    expect(parsed.runtime?.policies[0]).not.toHaveProperty("candidates");
    expect(parsed.capabilities[0]?.discovery).toBe("discoverable");
  });

  it("v2: a runtime-less file stays 'not observed'", () => {
    expect(parseSnapshot(JSON.stringify({ ...without(v3, "runtime"), version: 2 }))).not.toHaveProperty("runtime");
  });

  it("refuses v4 and a missing version, naming what it got", () => {
    expect(() => parseSnapshot(JSON.stringify({ ...v3, version: 4 }))).toThrow(
      "not a capability snapshot this version can read (got version 4, expected 1, 2 or 3)",
    );
    expect(() => parseSnapshot("{}")).toThrow("got version none");
  });

  it("v3: an entry without discovery reads as discoverable (cli.md §6.2)", () => {
    const parsed = parseSnapshot(JSON.stringify({ ...v3, capabilities: [without(entry("accounts.close"), "discovery")] }));
    expect(parsed.capabilities[0]?.discovery).toBe("discoverable");
  });

  it("a faulty entry of a readable version is named, and the version is not blamed", () => {
    const text = JSON.stringify({ ...v3, capabilities: [entry("a"), { ...entry("billing.refund"), risk: "extreme" }] });
    expect(() => parseSnapshot(text)).toThrow("invalid capability snapshot (version 3): capabilities[1] (billing.refund).risk is invalid");
    expect(() => parseSnapshot(text)).not.toThrow(/expected 1, 2 or 3/);
  });

  it("refuses malformed files", () => {
    expect(() => parseSnapshot("not json")).toThrow(/not a capability snapshot/);
    expect(() => parseSnapshot(JSON.stringify({ ...v3, capabilities: {} }))).toThrow(/capabilities/);
    expect(() => parseSnapshot(JSON.stringify({ ...v3, capabilities: [{ ...entry("a"), risk: "extreme" }] }))).toThrow(/risk/);
    expect(() => parseSnapshot(JSON.stringify({ ...v3, capabilities: [{ ...entry("a"), discovery: "hidden" }] }))).toThrow(/discovery/);
    expect(() => parseSnapshot(JSON.stringify({ ...v3, excluded: [1] }))).toThrow(/excluded/);
    expect(() => parseSnapshot(JSON.stringify({ ...v3, runtime: { policies: [{ name: "p", phases: ["later"] }] } }))).toThrow(/phases/);
  });
});

describe("snapshotJson (cli.md §6.1)", () => {
  it("writes keys in the fixed order whatever order they were read in, two-space indent and a trailing newline", () => {
    const shuffled = JSON.parse(snapshotJson(v3)) as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(shuffled).reverse());
    const text = snapshotJson(parseSnapshot(JSON.stringify(reversed)));
    expect(text).toBe(snapshotJson(v3));
    expect(text.startsWith('{\n  "version": 3,\n  "capabilities": [')).toBe(true);
    expect(text.endsWith("\n")).toBe(true);
    expect(Object.keys(JSON.parse(text).runtime.policies[0])).toEqual(["name", "phases", "scope", "candidates"]);
  });
});

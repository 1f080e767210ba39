// Standing-grant caps through the built binary (issue 45, SI-13): the snapshot records them, `check` fails on
// adding or widening them under --fail-on widening and lets narrowing pass, `inspect` shows them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CapabilitySnapshot } from "../../src/snapshot/types.js";
import { BUILT } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

let dir: string;
let current: CapabilitySnapshot;

function baseline(name: string, edit: (grants: { maxUses: number; maxTtlMs: number; scopes: string[] } | undefined, snapshot: CapabilitySnapshot) => void): string {
  const copy = structuredClone(current);
  const approval = copy.capabilities[0]!.approval!;
  edit(approval.grants, copy);
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(copy, null, 2)}\n`);
  return path;
}

describe.skipIf(!BUILT)("grant caps end to end (SI-13)", { concurrent: true }, () => {
  beforeAll(async () => {
    dir = tempDir();
    const written = await runCli(["snapshot", "--entry", "granted.ts", "--snapshot", join(dir, "granted.json")]);
    expect(written.code, written.stderr).toBe(0);
    current = JSON.parse(readFileSync(join(dir, "granted.json"), "utf8")) as CapabilitySnapshot;
  });

  it("the snapshot records the caps inside approval, scopes sorted", () => {
    expect(current.capabilities[0]!.approval).toEqual({
      required: true,
      type: "manager",
      grants: { maxUses: 10, maxTtlMs: 3_600_000, scopes: ["actor", "conversation"] },
    });
    expect(readFileSync(join(dir, "granted.json"), "utf8")).toContain('"grants": {\n          "maxUses": 10,\n          "maxTtlMs": 3600000,');
  });

  it("adding grants is widening and fails --fail-on widening", async () => {
    const path = baseline("no-grants.json", (_grants, snapshot) => {
      delete snapshot.capabilities[0]!.approval!.grants;
    });
    const run = await runCli(["check", "--entry", "granted.ts", "--snapshot", path, "--fail-on", "widening", "--format", "json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).changes).toEqual([
      { kind: "widening", id: "refund", field: "approval.grants", message: "standing grants now allowed: maxUses 10, maxTtlMs 3600000ms, scopes actor, conversation" },
    ]);
  });

  it("a higher maxUses, a longer maxTtlMs and a new scope are each widening", async () => {
    const path = baseline("narrower-caps.json", (grants) => {
      grants!.maxUses = 3;
      grants!.maxTtlMs = 60_000;
      grants!.scopes = ["conversation"];
    });
    const run = await runCli(["check", "--entry", "granted.ts", "--snapshot", path, "--fail-on", "widening"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Capability drift — 3 changes, 3 widening");
    expect(run.stdout).toContain("grant maxUses 3 → 10");
    expect(run.stdout).toContain("grant maxTtlMs 60000ms → 3600000ms");
    expect(run.stdout).toContain("grant scope now allowed: actor");
  });

  it("narrowing the caps passes --fail-on widening and fails the default any", async () => {
    const path = baseline("wider-caps.json", (grants) => {
      grants!.maxUses = 50;
    });
    const widening = await runCli(["check", "--entry", "granted.ts", "--snapshot", path, "--fail-on", "widening", "--format", "json"]);
    expect(widening.code).toBe(0);
    expect(JSON.parse(widening.stdout).changes).toEqual([{ kind: "narrowing", id: "refund", field: "approval.grants", message: "grant maxUses 50 → 10" }]);
    const any = await runCli(["check", "--entry", "granted.ts", "--snapshot", path]);
    expect(any.code).toBe(1);
  });

  it("a baseline with caps no runtime accepts is refused as a bad snapshot", async () => {
    const path = baseline("bad-caps.json", (grants) => {
      grants!.maxUses = 0;
    });
    const run = await runCli(["check", "--entry", "granted.ts", "--snapshot", path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("approval.grants is invalid");
  });

  it("inspect shows each capability's grant caps", async () => {
    const run = await runCli(["inspect", "--entry", "granted.ts", "--plain", "--detail"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("grants ≤10 uses, ≤3600000ms, actor/conversation");
    const json = await runCli(["inspect", "--entry", "granted.ts", "--json"]);
    expect(JSON.parse(json.stdout).capabilities[0].approval.grants).toEqual({ maxUses: 10, maxTtlMs: 3_600_000, scopes: ["actor", "conversation"] });
  });
});

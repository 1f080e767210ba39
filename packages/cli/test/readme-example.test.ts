// The README's programmatic example, run as written.
import { describe, expect, it } from "vitest";
import { allow, createCapabilityRegistry, defineGovernance, definePolicy } from "@orpc-agent/core";
import { buildSnapshot, diffSnapshots, parseSnapshot, renderChanges, snapshotJson } from "../src/index.js";
import { os } from "@orpc/server";

describe("README example", () => {
  it("diffs a committed snapshot against the current governance", () => {
    const tenantGuard = definePolicy("tenant-guard", () => allow());
    const agent = (expose: Record<string, boolean>) =>
      os.meta({ agent: { description: "Read a report.", expose, sideEffect: "read", risk: "low" } } as never).handler(() => null);

    const committedText = snapshotJson(
      buildSnapshot(defineGovernance({ registry: createCapabilityRegistry({ reports: { read: agent({ direct: true }) } }), policies: [tenantGuard] })),
    );
    const governance = defineGovernance({ registry: createCapabilityRegistry({ reports: { read: agent({ direct: true, mcp: true }) } }), policies: [tenantGuard] });

    const changes = diffSnapshots(parseSnapshot(committedText), buildSnapshot(governance));
    expect(renderChanges(changes, { color: false })).toContain("reports.read  expose  now exposed on mcp");
  });
});

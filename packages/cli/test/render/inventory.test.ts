import { describe, expect, it } from "vitest";
import { renderInventory } from "../../src/render/inventory.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

const plain = { color: false };
const scoped = snapshot(
  [
    entry("accounts.close", {
      sideEffect: "destructive",
      risk: "critical",
      expose: ["aiSdk", "direct"],
      approval: { required: true, type: "ops" },
      policies: ["own-check"],
      tags: ["accounts"],
      idempotent: true,
      retry: { maxAttempts: 2, retryOn: false },
      timeoutMs: 5_000,
      redact: { output: true, approvalInput: true },
    }),
    entry("reports.read", { sideEffect: "read", risk: "low", expose: [], toolNames: undefined }),
  ],
  {
    unexposed: ["reports.read"],
    excluded: ["health.ping"],
    runtime: {
      policies: [
        policy("tenant-guard", { phases: ["discovery", "invocation"], candidates: ["accounts.close", "reports.read"] }),
        policy("writes", { scope: { capabilities: { sideEffects: ["write", "destructive"] }, surfaces: ["aiSdk", "mcp"] }, candidates: ["accounts.close"] }),
        policy("paused", { scope: { capabilities: { ids: [] } }, candidates: [] }),
      ],
    },
  },
);

describe("renderInventory (cli.md §8.2)", () => {
  it("prints headline, table, runtime section and lists, with runtime: cells before the capability's own policies", () => {
    expect(renderInventory(scoped, plain, "governance")).toBe(
      [
        "2 capabilities · 1 exposed · declared gates: 1 approval · 3 runtime policies · 1 unexposed · 1 excluded",
        "",
        "CAPABILITY      SIDE EFFECT  RISK      EXPOSE        APPROVAL  POLICIES",
        "accounts.close  destructive  critical  aiSdk,direct  required  runtime:tenant-guard, runtime:writes, own-check",
        "reports.read    read         low       —             —         runtime:tenant-guard",
        "",
        "Runtime policies",
        "  tenant-guard  discovery,invocation  all                                                 2 candidates",
        "  writes        invocation            sideEffects=write|destructive & surfaces=aiSdk|mcp  1 candidate",
        "  paused        invocation            ids=(none)                                          0 candidates",
        "  Candidates are where a policy may run, not what it decides: actor, input, context and surface still decide.",
        "",
        "Unexposed — defined, reachable on no surface",
        "  reports.read",
        "",
        "Excluded — no meta.agent",
        "  health.ping",
        "",
      ].join("\n"),
    );
  });

  it("NOT OBSERVED for a bare registry says why, and that unknown is not none", () => {
    const text = renderInventory(snapshot([entry("a")]), plain, "registry");
    expect(text).toContain("Runtime policies — NOT OBSERVED");
    expect(text).toContain("unknown, not none");
    expect(text).toContain("defineGovernance({ registry, policies })");
  });

  it("NOT OBSERVED for an unreported runtime says to upgrade core", () => {
    expect(renderInventory(snapshot([entry("a")]), plain, "runtime-unreported")).toMatch(/NOT OBSERVED[\s\S]*Upgrade @orpc-agent\/core/);
  });

  it("an observed empty list says none configured", () => {
    expect(renderInventory(snapshot([entry("a")], { runtime: { policies: [] } }), plain)).toContain("Runtime policies — none configured");
  });

  it("a policy without candidates shows 'scope not observed'", () => {
    const text = renderInventory(snapshot([entry("a")], { runtime: { policies: [{ name: "old", phases: ["invocation"] }] } }), plain);
    expect(text).toContain("  old  invocation  scope not observed\n");
  });

  it("min prints the headline only", () => {
    expect(renderInventory(scoped, plain, "governance", "min")).toBe(
      "2 capabilities · 1 exposed · declared gates: 1 approval · 3 runtime policies · 1 unexposed · 1 excluded\n",
    );
  });

  it("detail adds the description and the present facts under each row", () => {
    const lines = renderInventory(scoped, plain, "governance", "detail").split("\n");
    const row = lines.findIndex((line) => line.startsWith("accounts.close"));
    expect(lines[row + 1]).toBe("  The accounts.close capability.");
    expect(lines[row + 2]).toBe(
      "  #accounts · tools aiSdk=accounts_close · approval type ops · idempotent · retry ×2 · timeout 5000ms · redacts output + approval input",
    );
    expect(lines[row + 3]?.startsWith("reports.read")).toBe(true);
  });

  it("colour never changes the text, and is absent unless asked for", () => {
    const colored = renderInventory(scoped, { color: true }, "governance", "detail");
    expect(colored).toMatch(/\u001b\[/);
    expect(colored.replace(/\u001b\[\d+m/g, "")).toBe(renderInventory(scoped, plain, "governance", "detail"));
    expect(renderInventory(scoped, plain, "governance", "detail")).not.toMatch(/\u001b/);
  });
});

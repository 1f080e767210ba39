// `approvalDemand`: what an adapter can truthfully tell a client about approval before a call, from the capability's
// metadata and the policies the runtime would run for it on that surface.
import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  composePolicies,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  deny,
  requireApproval,
  type AgentMeta,
  type AgentPolicy,
  type PolicyScope,
} from "../../src/index.js";
import { approvalDemand } from "../../src/adapter/index.js";

const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
const meta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "d", expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "high", ...extra });
const capability = (extra?: Partial<AgentMeta>) => ap.meta(agentMeta(meta(extra))).handler(() => 1);
const aboveLimit = (phases: ("discovery" | "invocation" | "execution")[], scope?: PolicyScope) =>
  definePolicy("above-limit", (req) => (((req.input as { amount?: number } | undefined)?.amount ?? 0) > 100 ? requireApproval({ reason: "large" }) : allow()), {
    phases,
    ...(scope !== undefined && { scope }),
  });

function demandWith(policies: AgentPolicy[], extra?: Partial<AgentMeta>, shadowPolicies: AgentPolicy[] = []) {
  const governance = defineGovernance({ registry: createCapabilityRegistry({ orders: { refund: capability(extra) } }), policies, shadowPolicies });
  return { mcp: approvalDemand(governance, "orders.refund", "mcp"), aiSdk: approvalDemand(governance, "orders.refund", "aiSdk") };
}

describe("approvalDemand", () => {
  it('is "always" when the metadata requires approval, whatever the policies', () => {
    expect(demandWith([], { approval: { required: true } })).toEqual({ mcp: "always", aiSdk: "always" });
  });

  it('is "conditional" when an enforced invocation or execution policy applies on the surface: a threshold decides per call', () => {
    expect(demandWith([aboveLimit(["invocation"])])).toEqual({ mcp: "conditional", aiSdk: "conditional" });
    expect(demandWith([aboveLimit(["execution"])])).toEqual({ mcp: "conditional", aiSdk: "conditional" });
    expect(demandWith([], { policies: [aboveLimit(["invocation"])] })).toEqual({ mcp: "conditional", aiSdk: "conditional" });
    expect(demandWith([composePolicies(definePolicy("noop", () => allow(), { phases: ["discovery"] }), aboveLimit(["invocation"]))])).toEqual({ mcp: "conditional", aiSdk: "conditional" });
    // A policy scoped to some acting agents may run for this caller: it counts.
    expect(demandWith([aboveLimit(["invocation"], { via: ["claude-desktop"] })])).toEqual({ mcp: "conditional", aiSdk: "conditional" });
    // The adapter cannot see inside a policy: one that only ever denies counts too.
    expect(demandWith([definePolicy("never", () => deny("NO", "No."))])).toEqual({ mcp: "conditional", aiSdk: "conditional" });
  });

  it('is "never" when no enforced policy runs at call time on that surface', () => {
    expect(demandWith([])).toEqual({ mcp: "never", aiSdk: "never" });
    expect(demandWith([aboveLimit(["discovery"])])).toEqual({ mcp: "never", aiSdk: "never" });
    expect(demandWith([aboveLimit(["invocation"], { surfaces: ["aiSdk"] })])).toEqual({ mcp: "never", aiSdk: "conditional" });
    expect(demandWith([aboveLimit(["invocation"], { capabilities: { tags: ["payments"] } })])).toEqual({ mcp: "never", aiSdk: "never" });
    // Shadow policies never change an outcome.
    expect(demandWith([], {}, [aboveLimit(["invocation"])])).toEqual({ mcp: "never", aiSdk: "never" });
    expect(demandWith([definePolicy("trial", () => requireApproval({ reason: "r" }), { mode: "shadow" })])).toEqual({ mcp: "never", aiSdk: "never" });
  });

  it("refuses an id the registry does not hold", () => {
    const governance = defineGovernance({ registry: createCapabilityRegistry({ orders: { refund: capability() } }) });
    expect(() => approvalDemand(governance, "orders.nothing", "mcp")).toThrow(TypeError);
  });
});

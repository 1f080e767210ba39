import type { CapabilityEntry, CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import { renderHeadline } from "./headline.js";
import { formatSelector } from "./selector.js";
import { EMPTY, RISK_STYLE, SIDE_EFFECT_STYLE, type Cell } from "./style.js";

/**
 * The facts of an inventory, independent of how they are drawn: the plain renderer and the Ink view
 * both draw this, so they show the same things (docs/architecture/spec/cli.md#cli-8-2, docs/architecture/spec/cli.md#cli-8-4).
 */
export type InventoryModel = {
  headline: string;
  columns: Cell[];
  rows: { cells: Cell[]; details: string[] }[];
  runtime: RuntimeSection;
  unexposed: string[];
  excluded: string[];
};

export type RuntimeSection =
  | { state: "not-observed"; title: string; why: string[] }
  | { state: "none"; title: string }
  | { state: "observed"; title: string; rows: Cell[][]; caveat: string };

export const COLUMNS = ["CAPABILITY", "SIDE EFFECT", "RISK", "EXPOSE", "APPROVAL", "POLICIES"];

export function inventoryModel(snapshot: CapabilitySnapshot, entrySource?: EntrySource): InventoryModel {
  const runtimePolicies = snapshot.runtime?.policies ?? [];
  return {
    headline: renderHeadline(snapshot),
    columns: COLUMNS.map((text) => ({ text, style: "dim" })),
    rows: snapshot.capabilities.map((capability) => {
      // Runtime policies first: they evaluate before the capability's own (docs/architecture/spec/core.md#core-3-1).
      const policies = [
        ...runtimePolicies
          .filter((policy) => policy.candidates?.includes(capability.id) === true)
          .map((policy) => `runtime:${policy.name}${policy.mode === "shadow" ? " (shadow)" : ""}`),
        ...capability.policies,
        ...(capability.shadowPolicies ?? []).map((name) => `${name} (shadow)`),
      ];
      return {
        cells: [
          { text: capability.id },
          { text: capability.sideEffect, style: SIDE_EFFECT_STYLE[capability.sideEffect] },
          { text: capability.risk, style: RISK_STYLE[capability.risk] },
          orEmpty(capability.expose.join(",")),
          capability.approval?.required === true ? { text: "required", style: "green" } : orEmpty(""),
          orEmpty(policies.join(", ")),
        ],
        details: detailLines(capability),
      };
    }),
    runtime: runtimeSection(snapshot, entrySource),
    unexposed: snapshot.unexposed,
    excluded: snapshot.excluded,
  };
}

function orEmpty(text: string): Cell {
  return text === "" ? { text: EMPTY, style: "dim" } : { text };
}

function detailLines(capability: CapabilityEntry): string[] {
  const facts: string[] = capability.tags.map((tag) => `#${tag}`);
  if (capability.toolNames !== undefined) {
    const names = Object.entries(capability.toolNames).map(([surface, name]) => `${surface}=${name}`);
    facts.push(`tools ${names.join(" ")}`);
  }
  if (capability.approval?.type !== undefined) facts.push(`approval type ${capability.approval.type}`);
  if (capability.approval?.quorum !== undefined) facts.push(`${capability.approval.quorum} approvers`);
  const grants = capability.approval?.grants;
  if (grants !== undefined) facts.push(`grants ≤${grants.maxUses} uses, ≤${grants.maxTtlMs}ms, ${grants.scopes.join("/")}`);
  if (capability.idempotent) facts.push("idempotent");
  if (capability.retry !== undefined) facts.push(`retry ×${capability.retry.maxAttempts}`);
  if (capability.timeoutMs !== undefined) facts.push(`timeout ${capability.timeoutMs}ms`);
  const redacts = [
    capability.redact?.output === true ? "output" : undefined,
    capability.redact?.approvalInput === true ? "approval input" : undefined,
  ].filter((part) => part !== undefined);
  if (redacts.length > 0) facts.push(`redacts ${redacts.join(" + ")}`);

  const lines: string[] = [];
  if (capability.description !== undefined) lines.push(capability.description);
  if (facts.length > 0) lines.push(facts.join(" · "));
  return lines;
}

function runtimeSection(snapshot: CapabilitySnapshot, entrySource: EntrySource | undefined): RuntimeSection {
  const runtime = snapshot.runtime;
  if (runtime === undefined) {
    return { state: "not-observed", title: "Runtime policies — NOT OBSERVED", why: notObservedWhy(entrySource) };
  }
  if (runtime.policies.length === 0) return { state: "none", title: "Runtime policies — none configured" };
  return {
    state: "observed",
    title: "Runtime policies",
    rows: runtime.policies.map((policy) => {
      const count = policy.candidates?.length;
      return [
        policy.mode === "shadow" ? { text: `${policy.name} (shadow)`, style: "dim" } : { text: policy.name },
        { text: policy.phases.join(",") },
        { text: formatSelector(policy) },
        count === undefined ? { text: "" } : { text: `${count} candidate${count === 1 ? "" : "s"}` },
      ];
    }),
    caveat:
      "Candidates are where a policy may run, not what it decides: actor, input, context and surface still decide." +
      (runtime.policies.some((policy) => policy.mode === "shadow") ? " Shadow policies are evaluated and audited, never enforced." : ""),
  };
}

// docs/architecture/spec/cli.md#cli-2 items 2–3: unknown is not none, and the output says so itself.
function notObservedWhy(entrySource: EntrySource | undefined): string[] {
  if (entrySource === "runtime-unreported") {
    return [
      "The runtime this entry exports does not report its governance, so its policies are unknown (not none).",
      "Upgrade @orpc-agent/core so runtimes expose `governance`, or export the governance itself.",
    ];
  }
  if (entrySource === "registry") {
    return [
      "The entry exports a bare registry, which names no runtime policies: they are unknown, not none,",
      "and this snapshot cannot catch a runtime policy's deletion. Declare them with",
      "defineGovernance({ registry, policies }) and point --entry (or --export) there.",
    ];
  }
  return ["This snapshot does not record runtime policies: they are unknown, not none."];
}

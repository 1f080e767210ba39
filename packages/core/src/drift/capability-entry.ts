import type { ExposureSurface } from "../vocabulary/types.js";
import type { AgentCapability } from "../registry/types.js";
import { sortedByCodeUnit } from "./code-unit-order.js";
import type { CapabilityEntry } from "./types.js";

/**
 * What an entry needs from outside: the CLI passes the application's own core functions (converter state is
 * module-level, docs/architecture/spec/cli.md#cli-3); resume passes none of the schema parts, since R8 binds the input on its own.
 */
export type CapabilityEntryOptions = {
  descriptions: boolean;
  defaultToolName(id: string): string;
  inputSchemaHash(schema: AgentCapability["inputSchema"]): string | null;
};

const TOOL_SURFACES = ["aiSdk", "mcp"] as const;

/**
 * Records one capability (docs/architecture/spec/cli.md#cli-6-2). Functions become presence flags; policy bodies never appear.
 * Keys are assigned in on-disk order.
 */
export function capabilityEntry(capability: AgentCapability, options: CapabilityEntryOptions): CapabilityEntry {
  const { meta } = capability;
  // SI-1: only `true` exposes; `false` and absent are the same.
  const expose = sortedByCodeUnit(
    (Object.keys(meta.expose) as ExposureSurface[]).filter((surface) => meta.expose[surface] === true),
  );

  const toolNames: NonNullable<CapabilityEntry["toolNames"]> = {};
  for (const surface of TOOL_SURFACES) {
    // Adapter `toolNaming` overrides are invisible here (docs/architecture/spec/cli.md#cli-2 item 4).
    if (expose.includes(surface)) toolNames[surface] = meta.adapters?.[surface]?.toolName ?? options.defaultToolName(capability.id);
  }

  // Spread order is the on-disk key order (docs/architecture/spec/cli.md#cli-6-2).
  return {
    id: capability.id,
    ...(options.descriptions ? { description: meta.description } : {}),
    sideEffect: meta.sideEffect,
    risk: meta.risk,
    expose,
    ...(Object.keys(toolNames).length > 0 ? { toolNames } : {}),
    discovery: meta.discovery ?? "discoverable",
    ...(meta.approval !== undefined ? { approval: approvalEntry(meta.approval) } : {}),
    idempotent: meta.idempotent === true,
    ...(meta.retry !== undefined ? { retry: retryEntry(meta.retry) } : {}),
    ...(meta.timeoutMs !== undefined ? { timeoutMs: meta.timeoutMs } : {}),
    tags: sortedByCodeUnit(meta.tags ?? []),
    // A capability-scoped composite keeps its composite name (docs/architecture/spec/cli.md#cli-6-2, ADR-016).
    policies: (meta.policies ?? []).filter((policy) => policy.mode !== "shadow").map((policy) => policy.name),
    ...shadowNames(meta.policies ?? []),
    ...(meta.redact !== undefined
      ? { redact: { output: typeof meta.redact.output === "function", approvalInput: typeof meta.redact.approvalInput === "function" } }
      : {}),
    inputSchemaHash: options.inputSchemaHash(capability.inputSchema),
  };
}

function approvalEntry(approval: NonNullable<AgentCapability["meta"]["approval"]>): NonNullable<CapabilityEntry["approval"]> {
  return {
    required: approval.required === true,
    ...(approval.type !== undefined ? { type: approval.type } : {}),
    ...(approval.expiresInMs !== undefined ? { expiresInMs: approval.expiresInMs } : {}),
    // A quorum of 1 is the default and is left out, so snapshots of single-approver capabilities do not change.
    ...(approval.quorum !== undefined && approval.quorum > 1 ? { quorum: approval.quorum } : {}),
    // Absent when undeclared, so snapshots of capabilities without grants do not change. Scopes are sorted: their
    // declaration order allows nothing more.
    ...(approval.grants !== undefined
      ? { grants: { maxUses: approval.grants.maxUses, maxTtlMs: approval.grants.maxTtlMs, scopes: sortedByCodeUnit(approval.grants.scopes) } }
      : {}),
  };
}

function retryEntry(retry: NonNullable<AgentCapability["meta"]["retry"]>): NonNullable<CapabilityEntry["retry"]> {
  return {
    maxAttempts: retry.maxAttempts,
    ...(retry.backoffMs !== undefined ? { backoffMs: retry.backoffMs } : {}),
    retryOn: typeof retry.retryOn === "function",
  };
}

/** Shadow policies are listed apart, so moving one between modes is drift of its own (docs/architecture/spec/cli.md#cli-7). */
function shadowNames(policies: readonly { name: string; mode?: string }[]): { shadowPolicies?: string[] } {
  const names = policies.filter((policy) => policy.mode === "shadow").map((policy) => policy.name);
  return names.length === 0 ? {} : { shadowPolicies: names };
}

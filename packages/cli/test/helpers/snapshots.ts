import type { CapabilityEntry, CapabilitySnapshot, RuntimePolicyEntry } from "../../src/snapshot/types.js";

/** A v3 capability entry with every required field; override what a test is about. */
export function entry(id: string, overrides: Partial<CapabilityEntry> = {}): CapabilityEntry {
  return {
    id,
    description: `The ${id} capability.`,
    sideEffect: "write",
    risk: "medium",
    expose: ["aiSdk"],
    toolNames: { aiSdk: id.replaceAll(".", "_") },
    discovery: "discoverable",
    idempotent: false,
    tags: [],
    policies: [],
    inputSchemaHash: null,
    ...overrides,
  };
}

export function policy(name: string, overrides: Partial<RuntimePolicyEntry> = {}): RuntimePolicyEntry {
  return { name, phases: ["invocation"], candidates: [], ...overrides };
}

export function snapshot(capabilities: CapabilityEntry[], overrides: Partial<CapabilitySnapshot> = {}): CapabilitySnapshot {
  return { version: 3, capabilities, excluded: [], unexposed: [], ...overrides };
}

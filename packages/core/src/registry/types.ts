import type { AnyProcedure } from "@orpc/server";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { AgentMeta } from "../capability/types.js";
import type { ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";

/** A procedure tree: each leaf an oRPC procedure, each branch a plain object. */
export type CapabilityDefs = { [segment: string]: AnyProcedure | CapabilityDefs };

/** A procedure with valid agent metadata, addressed by its dot-joined path. */
export interface AgentCapability {
  id: string;
  path: string[];
  /** Normalized (tags, policies, idempotent defaulted) and frozen. */
  meta: AgentMeta;
  inputSchema: StandardSchemaV1 | undefined;
  outputSchema: StandardSchemaV1 | undefined;
  procedure: AnyProcedure;
}

export type CapabilityQuery = {
  surface?: ExposureSurface;
  tags?: string[];
  sideEffect?: SideEffect[];
  risk?: RiskLevel[];
};

export type RegistryInspection = {
  capabilities: AgentCapability[];
  excluded: { path: string; reason: "no-agent-meta" }[];
  /** Ids with no `true` in `expose`. */
  unexposed: string[];
};

export interface CapabilityRegistry {
  ids(): string[];
  get(id: string): AgentCapability | undefined;
  capabilities(): AgentCapability[];
  filter(query: CapabilityQuery | ((capability: AgentCapability) => boolean)): CapabilityRegistry;
  inspect(): RegistryInspection;
}

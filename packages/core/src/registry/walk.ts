import type { AnyProcedure } from "@orpc/server";
import { validateAgentMeta } from "./validate-meta.js";
import { describeValue } from "../internal/describe-value.js";
import { isPlainObject } from "../internal/plain-object.js";
import { hasIgnoredAgentMeta, isOrpcLazy, isOrpcProcedure, procedureSchemas } from "../orpc/procedure.js";
import { isEventIteratorSchema } from "./event-iterator.js";
import type { AgentCapability, RegistryInspection } from "./types.js";

export type ExcludedProcedure = RegistryInspection["excluded"][number];

/** What the walk found, in registry order; problems are pushed onto the caller's list. */
export type WalkResult = { capabilities: AgentCapability[]; excluded: ExcludedProcedure[] };

type WalkState = {
  capabilities: AgentCapability[];
  excluded: ExcludedProcedure[];
  problems: string[];
  /** Current path, reused across the walk; copied only for capabilities. */
  segments: string[];
  /** Branches on the current path, to report cycles instead of recursing forever. */
  ancestors: object[];
};

export const LAZY_PROBLEM =
  "is a lazy router or procedure; resolve it first (e.g. `const resolved = await unlazyRouter(router)`) " +
  "and pass the resolved router to createCapabilityRegistry";

export const IGNORED_AGENT_META_PROBLEM =
  "passes a plain { agent } object to .meta(), which oRPC 2 ignores (it takes meta plugins only); " +
  "declare the capability with .meta(agentMeta({ ... })) from @orpc-agent/core, which works on oRPC 1 and 2";

/**
 * Walks a procedure tree depth-first in own-key order (docs/architecture/spec/core.md#core-2-1); the visiting order is the
 * registry order. `root` must be a plain object.
 */
export function walkCapabilityDefs(root: object, problems: string[]): WalkResult {
  const state: WalkState = { capabilities: [], excluded: [], problems, segments: [], ancestors: [root] };
  walkBranch(root as Record<string, unknown>, "", state);
  return { capabilities: state.capabilities, excluded: state.excluded };
}

function walkBranch(branch: Record<string, unknown>, prefix: string, state: WalkState): void {
  for (const segment of Object.keys(branch)) {
    if (segment === "" || segment.includes(".")) {
      state.problems.push(
        `${prefix === "" ? "(root)" : prefix}: segment ${JSON.stringify(segment)} is invalid; ` +
          'segments must be non-empty and must not contain "." (ids are dot-joined paths)',
      );
      continue;
    }
    const id = prefix === "" ? segment : `${prefix}.${segment}`;
    state.segments.push(segment);
    visitEntry(branch[segment], id, state);
    state.segments.pop();
  }
}

function visitEntry(entry: unknown, id: string, state: WalkState): void {
  if (isOrpcLazy(entry)) {
    state.problems.push(`${id}: ${LAZY_PROBLEM}`);
  } else if (isOrpcProcedure(entry)) {
    visitProcedure(entry, id, state);
  } else if (hasOrpcDefinition(entry)) {
    state.problems.push(
      `${id}: has "~orpc" but is not an implemented procedure (a contract procedure or a builder?); ` +
        "give it a handler with .handler(...) first",
    );
  } else if (isPlainObject(entry)) {
    if (state.ancestors.includes(entry)) {
      state.problems.push(`${id}: circular reference to one of its parent objects`);
      return;
    }
    state.ancestors.push(entry);
    walkBranch(entry, id, state);
    state.ancestors.pop();
  } else {
    state.problems.push(`${id}: expected an oRPC procedure or a plain object of procedures, got ${describeValue(entry)}`);
  }
}

function visitProcedure(procedure: AnyProcedure, id: string, state: WalkState): void {
  if (hasIgnoredAgentMeta(procedure)) {
    // oRPC 2 keeps a plain `.meta({ agent })` object but never applies it: refuse rather than drop the capability.
    state.problems.push(`${id}: ${IGNORED_AGENT_META_PROBLEM}`);
    return;
  }
  const agent: unknown = procedure["~orpc"].meta?.agent;
  if (agent === undefined) {
    // SI-1: no agent meta means not a capability; listed so the omission is visible.
    state.excluded.push(Object.freeze({ path: id, reason: "no-agent-meta" as const }));
    return;
  }
  const meta = validateAgentMeta(id, agent, state.problems);
  const { inputSchema, outputSchema, inputCount, outputCount } = procedureSchemas(procedure);
  if (inputCount > 1 || outputCount > 1) {
    state.problems.push(
      `${id}: declares ${inputCount > 1 ? `${inputCount} input` : `${outputCount} output`} schemas (oRPC 2 chained .input()/.output()); ` +
        "a capability takes one input and one output schema, so merge them into one",
    );
    return;
  }
  // An event-iterator output makes a streaming capability; an event-iterator input (a client stream) stays refused
  // (docs/architecture/spec/core.md#core-2-1 as amended: "Streaming capabilities and progress").
  let refused = false;
  if (isEventIteratorSchema(inputSchema)) {
    state.problems.push(`${id}: input schema is an event iterator; a capability's input cannot stream (only its output may)`);
    refused = true;
  }
  if (meta?.stream !== undefined && !isEventIteratorSchema(outputSchema)) {
    state.problems.push(`${id}: meta.stream applies to streaming capabilities only (an output declared with eventIterator(...))`);
    refused = true;
  }
  if (meta === undefined || refused) return;
  state.capabilities.push(
    Object.freeze({ id, path: Object.freeze(state.segments.slice()) as string[], meta, inputSchema, outputSchema, procedure }),
  );
}

function hasOrpcDefinition(value: unknown): boolean {
  return (typeof value === "object" || typeof value === "function") && value !== null && "~orpc" in value;
}

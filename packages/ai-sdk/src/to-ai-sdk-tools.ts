import type { Tool, ToolSet } from "ai";
import type { AgentRuntime, DescribeOptions } from "@orpc-agent/core";
import { createGovernedTool, type ToolBinding } from "./governed-tool.js";
import { assertToolsOptions } from "./options.js";
import { buildToolNameMap } from "./tool-names.js";
import type { AISDKToolsOptions } from "./types.js";

/**
 * Governed AI SDK tools for one request, on surface `aiSdk` (adapters.md §2.2): what this actor discovers,
 * one tool per capability in registry order, every call through `runtime.invoke`. Build it per request in the
 * authenticated handler; never cache a set across requests.
 *
 * @example
 * const tools = await toAISDKTools(runtime, { actor: session.actor, context: { db } });
 * const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt });
 */
export function toAISDKTools<TContext>(runtime: AgentRuntime<TContext>, options: AISDKToolsOptions<TContext>): Promise<ToolSet>;
// The remote overload over a `CapabilityClient` (adapters.md §2.6, ADR-019) joins here as a second signature;
// its target is told apart by the absence of a `registry` member.
export async function toAISDKTools<TContext>(runtime: AgentRuntime<TContext>, options: AISDKToolsOptions<TContext>): Promise<ToolSet> {
  if (!isAgentRuntime(runtime)) {
    throw new TypeError("toAISDKTools: the first argument must be an AgentRuntime; tools over a remote CapabilityClient are not available in this version.");
  }
  // §2.2 (1)
  assertToolsOptions(options);
  const { actor, context, scope, filter, toolNaming } = options;
  // §2.2 (2): the whole registry's aiSdk names, before any discovery, so the outcome never depends on the actor.
  const names = buildToolNameMap(runtime.registry, toolNaming);
  // §2.2 (3): rejections (e.g. a discovery-budget TIMEOUT) propagate; there is never a partial set.
  const describeOptions: DescribeOptions<TContext> = { actor, context };
  if (scope !== undefined) describeOptions.scope = scope;
  const descriptors = await runtime.describe("aiSdk", describeOptions);

  const binding: ToolBinding<TContext> = { runtime, actor, context };
  if (options.signal !== undefined) binding.signal = options.signal;
  if (options.correlationId !== undefined) binding.correlationId = options.correlationId;

  const tools: Record<string, Tool> = {};
  for (const descriptor of descriptors) {
    // §2.2 (4): a contextual capability has no place in an unbound list, yet stays invocable.
    if (descriptor.contextual === true) continue;
    // §2.2 (5): UX only (SI-2).
    if (filter !== undefined && !filter(descriptor)) continue;
    const name = names.nameOf(descriptor.id);
    if (name === undefined) throw new Error(`toAISDKTools: describe("aiSdk") returned ${descriptor.id}, which is not exposed on aiSdk in runtime.registry.`);
    tools[name] = createGovernedTool(descriptor, binding);
  }
  return tools;
}

function isAgentRuntime(target: unknown): target is AgentRuntime<unknown> {
  return typeof target === "object" && target !== null && "registry" in target;
}

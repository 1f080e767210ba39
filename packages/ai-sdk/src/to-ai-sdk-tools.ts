import type { AgentRuntime, DescribeOptions } from "@orpc-agent/core";
import type { CapabilityClient } from "@orpc-agent/core/client";
import { boundActor } from "./bound-actor.js";
import { createGovernedTool, type ToolBinding } from "./governed-tool.js";
import { sharedInputSchema } from "./input-schema.js";
import { assertToolsOptions, type AISDKToolsOptions } from "./options.js";
import { assertCapabilityClient, type RemoteAISDKToolsOptions } from "./remote-options.js";
import { toRemoteAISDKTools } from "./remote-tools.js";
import { toolNameMapFor } from "./tool-names.js";
import type { AISDKToolSet, RemoteAISDKToolSet } from "./types.js";

/**
 * Governed AI SDK tools for one request, on surface `aiSdk` (docs/architecture/spec/adapters.md#adapters-2-2): what this actor discovers,
 * one tool per capability in registry order, every call through `runtime.invoke`. Build it per request in the
 * authenticated handler; never cache a set across requests.
 *
 * @example
 * import { toAISDKTools } from "@orpc-agent/ai-sdk";
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { generateText, stepCountIs, type LanguageModel } from "ai";
 * declare interface Db { query(sql: string): Promise<unknown[]> }
 * declare const runtime: AgentRuntime<{ db: Db }>, db: Db, session: { actor: Actor };
 * declare const model: LanguageModel, prompt: string;
 * const tools = await toAISDKTools(runtime, { actor: session.actor, context: { db } });
 * const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt });
 */
export function toAISDKTools<TContext>(runtime: AgentRuntime<TContext>, options: AISDKToolsOptions<TContext>): Promise<AISDKToolSet>;
/**
 * Governed AI SDK tools over a remote capability authority (docs/architecture/spec/adapters.md#adapters-2-6, ADR-019): what the server lets this
 * client's actor discover, named by the server, every call through `client.invoke` under an invocation id the
 * required allocator commits first. Build it per authenticated request.
 *
 * @example
 * import { toAISDKTools } from "@orpc-agent/ai-sdk";
 * import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
 * declare const token: string, conversationId: string;
 * declare const invocations: { allocate(conversationId: string, call: { capabilityId: string; input: unknown; toolCallId: string }): Promise<string> };
 * const client = createHTTPCapabilityClient({ url: "https://api.example.com/rpc", headers: () => ({ authorization: `Bearer ${token}` }) });
 * const tools = await toAISDKTools(client, { invocationId: (call) => invocations.allocate(conversationId, call) });
 */
export function toAISDKTools(client: CapabilityClient, options: RemoteAISDKToolsOptions): Promise<RemoteAISDKToolSet>;
export async function toAISDKTools<TContext>(
  target: AgentRuntime<TContext> | CapabilityClient,
  options: AISDKToolsOptions<TContext> | RemoteAISDKToolsOptions,
): Promise<AISDKToolSet | RemoteAISDKToolSet> {
  // docs/architecture/spec/adapters.md#adapters-2-6 (decided there): a target with a `registry` member is a runtime, anything else a client.
  if (isAgentRuntime(target)) return toLocalAISDKTools(target as AgentRuntime<TContext>, options as AISDKToolsOptions<TContext>);
  assertCapabilityClient(target);
  return toRemoteAISDKTools(target, options as RemoteAISDKToolsOptions);
}

/** The local build; `ui` holds the UI layer's hooks (`governChat`), absent for `toAISDKTools`. */
export async function toLocalAISDKTools<TContext>(
  runtime: AgentRuntime<TContext>,
  options: AISDKToolsOptions<TContext>,
  ui: Pick<ToolBinding<TContext>, "observe" | "progress"> = {},
): Promise<AISDKToolSet> {
  // docs/architecture/spec/adapters.md#adapters-2-2 (1)
  assertToolsOptions(options);
  const { context, scope, filter, toolNaming } = options;
  // The host names the acting agent; the bound actor carries it to every describe and invoke (SI-3).
  const actor = boundActor(options);
  // docs/architecture/spec/adapters.md#adapters-2-2 (2): the whole registry's aiSdk names, before any discovery, so the outcome never depends on the actor.
  const names = toolNameMapFor(runtime.registry, toolNaming);
  // docs/architecture/spec/adapters.md#adapters-2-2 (3): rejections (e.g. a discovery-budget TIMEOUT) propagate; there is never a partial set.
  // The adapter only wraps the schemas, so it takes the shared frozen trees rather than a copy per capability.
  const describeOptions: DescribeOptions<TContext> = { actor, context, inputSchemas: "shared" };
  if (scope !== undefined) describeOptions.scope = scope;
  const descriptors = await runtime.describe("aiSdk", describeOptions);

  const binding: ToolBinding<TContext> = { runtime, actor, context };
  if (options.signal !== undefined) binding.signal = options.signal;
  if (options.correlationId !== undefined) binding.correlationId = options.correlationId;
  if (options.conversationId !== undefined) binding.conversationId = options.conversationId;
  if (ui.observe !== undefined) binding.observe = ui.observe;
  if (ui.progress !== undefined) binding.progress = ui.progress;

  const tools: AISDKToolSet = {};
  for (const descriptor of descriptors) {
    // docs/architecture/spec/adapters.md#adapters-2-2 (4): a contextual capability has no place in an unbound list, yet stays invocable.
    if (descriptor.contextual === true) continue;
    // docs/architecture/spec/adapters.md#adapters-2-2 (5): UX only (SI-2).
    if (filter !== undefined && !filter(descriptor)) continue;
    const name = names.nameOf(descriptor.id);
    if (name === undefined) throw new Error(`toAISDKTools: describe("aiSdk") returned ${descriptor.id}, which is not exposed on aiSdk in runtime.registry.`);
    tools[name] = createGovernedTool(descriptor, sharedInputSchema(descriptor.inputSchema), binding);
  }
  return tools;
}

function isAgentRuntime(target: unknown): target is AgentRuntime<unknown> {
  return typeof target === "object" && target !== null && "registry" in target;
}

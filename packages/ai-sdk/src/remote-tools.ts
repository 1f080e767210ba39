import type { CapabilityClient, DescribeRequest, RemoteDescriptor } from "@orpc-agent/core/client";
import { createRemoteTool, type RemoteToolBinding } from "./remote-tool.js";
import { assertRemoteToolsOptions } from "./remote-options.js";
import { isReservedToolName } from "@orpc-agent/core";
import { VALID_TOOL_NAME } from "./tool-names.js";
import type { RemoteAISDKToolsOptions } from "./remote-options.js";
import type { RemoteAISDKToolSet } from "./types.js";

/**
 * The remote overload's build (docs/architecture/spec/adapters.md#adapters-2-6): what the server lets this client's actor discover, one tool
 * per descriptor under its server-resolved `toolNames.aiSdk`, every call through `client.invoke`.
 */
export async function toRemoteAISDKTools(client: CapabilityClient, options: RemoteAISDKToolsOptions): Promise<RemoteAISDKToolSet> {
  assertRemoteToolsOptions(options);
  const { scope, filter, signal } = options;
  // Rejections (e.g. a discovery-budget TIMEOUT, an authentication failure) propagate; there is never a partial set.
  const request: DescribeRequest | undefined = scope === undefined ? undefined : { scope };
  const response = await client.describe(request, signal === undefined ? undefined : { signal });
  const descriptors = response?.descriptors;
  if (!Array.isArray(descriptors)) throw new TypeError("toAISDKTools: client.describe() answered without descriptors; is the client a protocol 1 CapabilityClient?");
  const names = checkedToolNames(descriptors);

  const binding: RemoteToolBinding = { client, invocationId: options.invocationId };
  if (signal !== undefined) binding.signal = signal;
  if (options.correlationId !== undefined) binding.correlationId = options.correlationId;

  const tools: RemoteAISDKToolSet = {};
  descriptors.forEach((descriptor, index) => {
    // docs/architecture/spec/distributed.md#distributed-2-3: a contextual capability has no place in an unbound list, yet stays invocable.
    if (descriptor.contextual === true) return;
    // UX only (SI-2).
    if (filter !== undefined && !filter(descriptor)) return;
    tools[names[index]!] = createRemoteTool(descriptor, binding);
  });
  return tools;
}

/**
 * The `aiSdk` name of every returned descriptor, contextual and filtered-out ones included, so a server naming
 * two capabilities alike (or one invalidly) fails every build rather than the one that happens to list both.
 */
function checkedToolNames(descriptors: readonly RemoteDescriptor[]): string[] {
  const owners = new Map<string, string>();
  return descriptors.map((descriptor) => {
    const name: unknown = descriptor?.toolNames?.aiSdk;
    if (typeof name !== "string" || !VALID_TOOL_NAME.test(name) || isReservedToolName(name)) {
      throw new Error(
        `toAISDKTools: the server named ${String(descriptor?.id)} ${JSON.stringify(name)} on aiSdk; AI SDK tool names must match ${VALID_TOOL_NAME.source} and not be an Object.prototype key. ` +
          "Fix the server's meta.adapters.aiSdk.toolName or its invocation service's toolNaming.aiSdk.",
      );
    }
    const owner = owners.get(name);
    if (owner !== undefined) {
      throw new Error(
        `toAISDKTools: tool name collision: the server names both ${owner} and ${descriptor.id} "${name}". ` +
          "Fix the server's meta.adapters.aiSdk.toolName or its invocation service's toolNaming.aiSdk.",
      );
    }
    owners.set(name, descriptor.id);
    return name;
  });
}

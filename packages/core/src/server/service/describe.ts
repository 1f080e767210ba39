import type { Actor } from "../../vocabulary/types.js";
import type { DescribeResponse, RemoteDescriptor, RemoteSurface } from "../../client/types.js";
import type { AgentRuntime, DescribeScope } from "../../runtime/types.js";
import { catalogDigest } from "../descriptors/digest.js";
import { remoteToolNames } from "../descriptors/tool-names.js";
import type { ServiceState } from "./state.js";

/** `service.describe`: the runtime's descriptors for this actor, plus tool names and digests (docs/architecture/spec/distributed.md#distributed-2). */
export async function describeRemote<C>(
  s: ServiceState,
  rt: AgentRuntime<C>,
  o: { actor: Actor; context: C; surface: RemoteSurface; scope?: DescribeScope },
): Promise<DescribeResponse> {
  // The schemas are only serialized onto the wire, so the shared frozen trees do.
  const local = await rt.describe(o.surface, { actor: o.actor, context: o.context, scope: o.scope, inputSchemas: "shared" });
  const descriptors: RemoteDescriptor[] = [];
  for (const d of local) {
    const capability = rt.registry.get(d.id)!;
    const remote: RemoteDescriptor = {
      id: d.id,
      description: d.description,
      inputSchema: d.inputSchema,
      sideEffect: d.sideEffect,
      risk: d.risk,
      tags: d.tags,
      idempotent: capability.meta.idempotent === true,
      toolNames: remoteToolNames(capability, s.toolNaming),
      digest: await s.digestOf(o.surface, capability),
    };
    if (d.requiresApproval) remote.requiresApproval = true;
    if (d.contextual) remote.contextual = true;
    if (d.streaming) remote.streaming = true;
    descriptors.push(remote);
  }
  return {
    protocol: 1,
    namespace: s.namespace,
    surface: o.surface,
    catalogDigest: await catalogDigest(descriptors.map((d) => [d.digest, d.requiresApproval === true] as const)),
    descriptors,
  };
}

import { canonicalJson } from "../../approvals/canonical-json.js";
import type { RemoteSurface } from "../../client/types.js";
import type { ExposureSurface } from "../../vocabulary/types.js";
import type { AgentCapability } from "../../registry/types.js";
import { isEventIteratorSchema } from "../../registry/event-iterator.js";
import { toJsonSchema } from "../../schema/to-json-schema.js";
import type { JsonSchemaObject } from "../../schema/types.js";
import { sha256Base64Url } from "../service/hashing.js";
import { remoteToolNames, type ToolNaming } from "./tool-names.js";

// Descriptor digests (docs/architecture/spec/distributed.md#distributed-2-1): equality only. Equal digests mean an equal basis; the algorithm
// is not contract. They bind what a model or host relies on to form arguments, plus where it runs; never
// the actor, context or per-actor approval, so one capability has one digest for every actor.

const EMPTY_OBJECT_SCHEMA: JsonSchemaObject = Object.freeze({ type: "object" }) as JsonSchemaObject;

/** The JSON Schema a descriptor carries for this capability: the memoized conversion, or `{ type: "object" }`. */
export function descriptorSchema(capability: AgentCapability): JsonSchemaObject {
  return capability.inputSchema ? toJsonSchema(capability.inputSchema) : EMPTY_OBJECT_SCHEMA;
}

export type DigestSource = { namespace: string; revision: string; toolNaming: ToolNaming | undefined };

export async function descriptorDigest(source: DigestSource, surface: RemoteSurface | ExposureSurface, capability: AgentCapability): Promise<string> {
  const meta = capability.meta;
  const basis = {
    namespace: source.namespace,
    revision: source.revision,
    surface,
    id: capability.id,
    description: meta.description,
    inputSchema: descriptorSchema(capability),
    sideEffect: meta.sideEffect,
    risk: meta.risk,
    tags: [...(meta.tags ?? [])].sort(),
    idempotent: meta.idempotent === true,
    approvalRequired: meta.approval?.required === true,
    discovery: meta.discovery ?? "discoverable",
    toolNames: remoteToolNames(capability, source.toolNaming),
  };
  // How a caller receives the result changes with it; the key is absent otherwise, so existing digests stand.
  if (isEventIteratorSchema(capability.outputSchema)) (basis as Record<string, unknown>).streaming = true;
  return `d1.${await sha256Base64Url(canonicalJson(basis))}`;
}

/** For cache skipping only: the ordered `(digest, requiresApproval)` pairs of a listing. */
export async function catalogDigest(pairs: readonly (readonly [string, boolean])[]): Promise<string> {
  return `d1.${await sha256Base64Url(canonicalJson(pairs))}`;
}

/**
 * Digests memoized per capability object and surface. Registries are module-scoped and immutable, so a
 * capability object's digest never changes for one service (whose namespace, revision and naming are fixed).
 */
export function createDigestCache(source: DigestSource) {
  const cache = new WeakMap<AgentCapability, Map<string, Promise<string>>>();
  return (surface: RemoteSurface | ExposureSurface, capability: AgentCapability): Promise<string> => {
    let bySurface = cache.get(capability);
    if (bySurface === undefined) cache.set(capability, (bySurface = new Map()));
    let digest = bySurface.get(surface);
    if (digest === undefined) {
      digest = descriptorDigest(source, surface, capability);
      bySurface.set(surface, digest);
      // A failed computation is not remembered.
      digest.catch(() => bySurface!.delete(surface));
    }
    return digest;
  };
}

import { defaultToolName, isReservedToolName, type AgentCapability, type CapabilityRegistry } from "@orpc-agent/core";

/** What mainstream model providers accept as a tool name (adapters.md §1.4, decided there). */
export const VALID_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The bidirectional naming of one build (adapters.md §1.4). */
export type ToolNameMap = {
  /** The wire name of a capability exposed on `aiSdk`; `undefined` for any other id. */
  nameOf(capabilityId: string): string | undefined;
  /**
   * What a protocol name addresses: a capability id, the name itself when nothing claims it (the runtime audits
   * the probe as unknown), or `undefined` when the name is a registry id addressed by a different wire name,
   * which answers the concealed `CAPABILITY_NOT_FOUND` without invoking.
   */
  resolve(toolName: string): string | undefined;
};

/**
 * `meta.adapters.aiSdk.toolName`, else `toolNaming(id)`, else `defaultToolName(id)`: first match wins
 * (adapters.md §1.4). Core's own resolver is not public, so the three-way precedence lives here.
 */
export function toolNameOf(capability: Pick<AgentCapability, "id" | "meta">, toolNaming?: (capabilityId: string) => string): unknown {
  const override = capability.meta.adapters?.aiSdk?.toolName;
  if (override !== undefined) return override;
  return toolNaming === undefined ? defaultToolName(capability.id) : toolNaming(capability.id);
}

/**
 * Names every capability of the registry and checks the names of those exposed on `aiSdk`, whoever asks, so a
 * build's outcome never depends on the actor (adapters.md §1.4). Throws on an invalid name or a collision; a
 * capability not exposed on `aiSdk` never collides and never fails the build.
 */
// Registries are immutable, so the name map of a (registry, toolNaming) pair is computed once, not per request.
const defaultNaming = new WeakMap<CapabilityRegistry, ToolNameMap>();
const customNaming = new WeakMap<CapabilityRegistry, WeakMap<(capabilityId: string) => string, ToolNameMap>>();

/** `buildToolNameMap`, memoized per registry and naming function (a collision still throws on every build). */
export function toolNameMapFor(registry: CapabilityRegistry, toolNaming?: (capabilityId: string) => string): ToolNameMap {
  if (toolNaming === undefined) {
    let map = defaultNaming.get(registry);
    if (!map) defaultNaming.set(registry, (map = buildToolNameMap(registry)));
    return map;
  }
  let byNaming = customNaming.get(registry);
  if (!byNaming) customNaming.set(registry, (byNaming = new WeakMap()));
  let map = byNaming.get(toolNaming);
  if (!map) byNaming.set(toolNaming, (map = buildToolNameMap(registry, toolNaming)));
  return map;
}

export function buildToolNameMap(registry: CapabilityRegistry, toolNaming?: (capabilityId: string) => string): ToolNameMap {
  const exposedByName = new Map<string, string[]>();
  const othersByName = new Map<string, string[]>();
  const nameById = new Map<string, string>();

  for (const capability of registry.capabilities()) {
    if (capability.meta.expose.aiSdk === true) {
      const name = toolNameOf(capability, toolNaming);
      if (typeof name === "string" && isReservedToolName(name)) {
        throw new Error(
          `toAISDKTools: the tool name ${JSON.stringify(name)} of ${capability.id} is reserved (an Object.prototype key): the tool set could not hold it. ` +
            "Set meta.adapters.aiSdk.toolName or return another name from toolNaming.",
        );
      }
      if (typeof name !== "string" || !VALID_TOOL_NAME.test(name)) {
        throw new Error(
          `toAISDKTools: the tool name ${JSON.stringify(name)} of ${capability.id} is invalid; AI SDK tool names must match ${VALID_TOOL_NAME.source}. ` +
            "Set meta.adapters.aiSdk.toolName or return a valid name from toolNaming.",
        );
      }
      nameById.set(capability.id, name);
      push(exposedByName, name, capability.id);
    } else {
      // Only resolution needs these names; a naming function failing on them must not fail the build.
      const name = tryToolNameOf(capability, toolNaming);
      if (name !== undefined) push(othersByName, name, capability.id);
    }
  }

  for (const [name, ids] of exposedByName) {
    if (ids.length > 1) {
      throw new Error(
        `toAISDKTools: tool name collision: "${name}" is claimed by ${ids.join(" and ")}. ` +
          "Give one of them meta.adapters.aiSdk.toolName, or make toolNaming return distinct names.",
      );
    }
  }

  return {
    nameOf: (capabilityId) => nameById.get(capabilityId),
    resolve(toolName) {
      const exposed = exposedByName.get(toolName);
      if (exposed !== undefined) return exposed[0];
      // A name held only by unexposed capabilities resolves when exactly one holds it, so the runtime audits
      // `not-exposed` rather than `unknown`.
      const others = othersByName.get(toolName);
      if (others !== undefined && others.length === 1) return others[0];
      // A capability is addressable only by its wire name.
      const named = registry.get(toolName);
      if (named !== undefined && tryToolNameOf(named, toolNaming) !== toolName) return undefined;
      return toolName;
    },
  };
}

function tryToolNameOf(capability: AgentCapability, toolNaming?: (capabilityId: string) => string): string | undefined {
  try {
    const name = toolNameOf(capability, toolNaming);
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

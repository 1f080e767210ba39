import { isReservedToolName, resolveToolName, type ToolSurface } from "../registry/tool-name.js";
import type { AgentCapability, CapabilityRegistry } from "../registry/types.js";
import { ConfigurationError } from "./configuration-error.js";

/** How one adapter names tools: its surface, its wire rule and who to blame in messages. */
export type ToolNameRules = {
  surface: ToolSurface;
  /** The function an application called, named in every message: `"toAISDKTools"`, `"createMCPHandler"`. */
  adapter: string;
  /** Every exposed capability's name must match it (the protocol's or the providers' rule). */
  validName: RegExp;
  /** The rule's owner in messages, e.g. `"AI SDK tool names"`. */
  ruleName: string;
  /** Refuse `Object.prototype` keys: the adapter hands tools over as the keys of a plain object. */
  objectKeys?: boolean;
  /** The application's `toolNaming` option. */
  toolNaming?: (capabilityId: string) => string;
};

/** The names of one build, both ways. Computed for the whole registry, so it never depends on who asks. */
export type ToolNameMap = {
  /** The wire name of a capability exposed on the surface; `undefined` for any other id. */
  nameOf(capabilityId: string): string | undefined;
  /**
   * What a protocol name addresses: the exposed capability holding it; else the one unexposed capability holding
   * it (so the runtime audits `not-exposed`); else the name itself (the runtime audits the probe as unknown); or
   * `undefined` for a registry id addressed by a different wire name, which must be concealed without invoking.
   */
  resolve(toolName: string): string | undefined;
  /** Wire name → id of the exposed capabilities, in registry order (adapters add their own tools next to them). */
  readonly exposed: ReadonlyMap<string, string>;
};

/**
 * Names every capability of the registry with `meta.adapters.<surface>.toolName`, else `toolNaming(id)`, else the
 * default (`.` → `_`), and checks the names of those exposed on the surface. Throws `ConfigurationError` on an
 * invalid or reserved name and on a collision; unexposed capabilities never collide, and a naming function that
 * fails on one of them does not fail the build. Memoized per registry, surface and naming function.
 *
 * @example
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { toolNameMap } from "@orpc-agent/core/adapter";
 * declare const runtime: AgentRuntime;
 * const names = toolNameMap(runtime.registry, { surface: "mcp", adapter: "createMCPHandler", validName: /^[\w.-]{1,128}$/, ruleName: "MCP tool names" });
 * names.nameOf("orders.refund"); // "orders_refund"
 */
export function toolNameMap(registry: CapabilityRegistry, rules: ToolNameRules): ToolNameMap {
  const bySurface = memo.get(registry) ?? new Map<ToolSurface, WeakMap<object, ToolNameMap>>();
  memo.set(registry, bySurface);
  const byNaming = bySurface.get(rules.surface) ?? new WeakMap<object, ToolNameMap>();
  bySurface.set(rules.surface, byNaming);
  const key = rules.toolNaming ?? DEFAULT_NAMING;
  let map = byNaming.get(key);
  if (map === undefined) byNaming.set(key, (map = buildToolNameMap(registry, rules)));
  return map;
}

// Registries are immutable, so a (registry, surface, naming) triple always names the same way.
const memo = new WeakMap<CapabilityRegistry, Map<ToolSurface, WeakMap<object, ToolNameMap>>>();
const DEFAULT_NAMING = {};

function buildToolNameMap(registry: CapabilityRegistry, rules: ToolNameRules): ToolNameMap {
  const { surface, adapter, toolNaming } = rules;
  const exposed = new Map<string, string>();
  const unexposed = new Map<string, string[]>();
  const nameById = new Map<string, string>();
  const fix = `Set meta.adapters.${surface}.toolName or make toolNaming return`;

  for (const capability of registry.capabilities()) {
    if (capability.meta.expose[surface] !== true) {
      const name = tryName(capability, surface, toolNaming);
      if (name === undefined) continue;
      nameById.set(capability.id, name);
      unexposed.set(name, [...(unexposed.get(name) ?? []), capability.id]);
      continue;
    }
    const name: unknown = resolveToolName(capability, surface, toolNaming);
    const owner = JSON.stringify(capability.id);
    if (typeof name !== "string" || !rules.validName.test(name)) {
      throw new ConfigurationError(`${adapter}: the tool name ${JSON.stringify(name)} of ${owner} is invalid: ${rules.ruleName} must match ${rules.validName}. ${fix} a valid name.`);
    }
    if (rules.objectKeys === true && isReservedToolName(name)) {
      throw new ConfigurationError(`${adapter}: the tool name ${JSON.stringify(name)} of ${owner} is reserved (an Object.prototype key): the tool set could not hold it. ${fix} another name.`);
    }
    const holder = exposed.get(name);
    if (holder !== undefined) throw toolNameCollision(rules, name, JSON.stringify(holder), owner);
    exposed.set(name, capability.id);
    nameById.set(capability.id, name);
  }

  return {
    exposed,
    nameOf: (capabilityId) => (registry.get(capabilityId)?.meta.expose[surface] === true ? nameById.get(capabilityId) : undefined),
    resolve(toolName) {
      const id = exposed.get(toolName);
      if (id !== undefined) return id;
      const holders = unexposed.get(toolName);
      if (holders?.length === 1) return holders[0];
      // A capability is addressable only by its wire name.
      const wireName = nameById.get(toolName);
      if (wireName !== undefined && wireName !== toolName) return undefined;
      return toolName;
    },
  };
}

/** The collision error, for adapters that add tools of their own beside the capabilities (`first`, `second` quoted). */
export function toolNameCollision(rules: Pick<ToolNameRules, "adapter" | "surface">, name: string, first: string, second: string): ConfigurationError {
  return new ConfigurationError(
    `${rules.adapter}: tool name collision on ${rules.surface}: "${name}" is claimed by ${first} and ${second}. ` +
      `Names are never renamed silently: give one of them meta.adapters.${rules.surface}.toolName, or make toolNaming return distinct names.`,
  );
}

function tryName(capability: AgentCapability, surface: ToolSurface, toolNaming?: (capabilityId: string) => string): string | undefined {
  try {
    const name: unknown = resolveToolName(capability, surface, toolNaming);
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

// The words every governance concept shares (docs/architecture/spec/core.md#core-1): where a call comes from, what
// the capability does, how risky it is, and who asks. Approvals, policies, audit and the registry all speak them,
// so they sit below every one of those folders (docs/architecture/packages.md, "Layers inside core").

/** Where a capability can be reached from. `direct` is server code; model surfaces are `aiSdk` and `mcp`. */
export type ExposureSurface = "direct" | "aiSdk" | "mcp" | "workflow" | "test";
export type SideEffect = "none" | "read" | "write" | "destructive" | "external";
export type RiskLevel = "low" | "medium" | "high" | "critical";

/** Who asks. Always taken from authenticated transport or app state, never from model output (SI-3). */
export type Actor = {
  id: string;
  kind: "user" | "service" | "automation" | "anonymous";
  displayName?: string;
  /** Application-defined; the runtime never interprets it. */
  attributes?: Record<string, unknown>;
  /**
   * The agent or client acting for this actor (an OAuth client id, a bot's service identity). Set by adapters from
   * transport authentication or by the host's options, never from model input (SI-3).
   */
  via?: ActingAgent;
};

/** The acting agent recorded beside the actor: who carried the request, not who asked. */
export type ActingAgent = { id: string; displayName?: string };

export const EXPOSURE_SURFACES: readonly ExposureSurface[] = ["direct", "aiSdk", "mcp", "workflow", "test"];
export const SIDE_EFFECTS: readonly SideEffect[] = ["none", "read", "write", "destructive", "external"];
export const RISK_LEVELS: readonly RiskLevel[] = ["low", "medium", "high", "critical"];
export const ACTOR_KINDS: readonly Actor["kind"][] = ["user", "service", "automation", "anonymous"];
export const MODEL_SURFACES: readonly ExposureSurface[] = ["aiSdk", "mcp"];

export function isWriteLike(sideEffect: SideEffect): boolean {
  return sideEffect === "write" || sideEffect === "destructive" || sideEffect === "external";
}

export function isExposureSurface(value: unknown): value is ExposureSurface {
  return typeof value === "string" && (EXPOSURE_SURFACES as readonly string[]).includes(value);
}

/** A well-formed actor: object, non-empty string id, valid kind. docs/architecture/spec/core.md#core-1 */
export function isWellFormedActor(value: unknown): value is Actor {
  if (typeof value !== "object" || value === null) return false;
  const a = value as { id?: unknown; kind?: unknown };
  return typeof a.id === "string" && a.id.length > 0 && (ACTOR_KINDS as readonly unknown[]).includes(a.kind) && isAbsentOrActingAgent((value as { via?: unknown }).via);
}

/** `via` is optional; when present it must name an agent, or nobody can tell who acted (fail closed). */
function isAbsentOrActingAgent(via: unknown): boolean {
  if (via === undefined) return true;
  if (typeof via !== "object" || via === null) return false;
  const v = via as { id?: unknown; displayName?: unknown };
  return typeof v.id === "string" && v.id.length > 0 && (v.displayName === undefined || typeof v.displayName === "string");
}

/** The acting agent's id when the actor carries a well-formed `via`; never its display name (SI-10). */
export function actingAgentId(actor: unknown): string | undefined {
  if (typeof actor !== "object" || actor === null) return undefined;
  const via = (actor as { via?: unknown }).via;
  if (typeof via !== "object" || via === null) return undefined;
  const id = (via as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0 ? id : undefined;
}

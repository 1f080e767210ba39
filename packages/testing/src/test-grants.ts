import { ConfigurationError } from "@orpc-agent/core/adapter";
import type { Actor, AgentRuntime, ExposureSurface, GrantRecord, GrantRequest, RuntimeGrants } from "@orpc-agent/core";
import { TEST_APPROVER } from "./approval-shortcuts.js";

/** Options of `t.grants.grant`; unset fields take the test runtime's own. */
export type TestGrantOptions = {
  /** @default the test runtime's `actor` */
  actor?: Actor;
  /** @default [{ id: "test-approver", kind: "user" }] */
  issuers?: Actor[];
  /** @default "test" */
  surface?: ExposureSurface;
  /** Required with `scope: "conversation"`. */
  conversationId?: string;
  /** @default the capability's `approval.type`, if any */
  types?: string[];
};

/**
 * `t.grants`: the runtime's `runtime.grants` (issue, get, list, revoke), plus `grant`, a shortcut that issues a standing
 * grant through the same checks as production (docs/guides/standing-grants.md).
 */
export type TestGrants = RuntimeGrants & {
  /**
   * Issues a grant for `capabilityId` to the test actor on the `test` surface, by the test approver. The request's
   * unset fields take the capability's caps: `uses` 1, `ttlMs` its `maxTtlMs`, `scope` `"actor"` when allowed (else
   * `"conversation"`, which needs `conversationId`). Refusals are the runtime's (`GRANT_*`).
   */
  grant(capabilityId: string, request?: Partial<GrantRequest>, options?: TestGrantOptions): Promise<GrantRecord>;
};

export function createTestGrants(runtime: AgentRuntime<any>, defaultActor: Actor): TestGrants {
  const grants = runtime.grants;
  return {
    issue: (options) => grants.issue(options),
    get: (id) => grants.get(id),
    list: (filter) => grants.list(filter),
    revoke: (id, options) => grants.revoke(id, options),
    grant(capabilityId, request = {}, options = {}) {
      const caps = runtime.registry.get(capabilityId)?.meta.approval?.grants;
      if (caps === undefined && (request.uses === undefined || request.ttlMs === undefined || request.scope === undefined)) {
        // No caps to default from: the runtime refuses the grant anyway; say why in test terms first.
        throw new ConfigurationError(`t.grants.grant: ${capabilityId} declares no approval.grants, so no grant can cover it.`);
      }
      const full: GrantRequest = {
        uses: request.uses ?? 1,
        ttlMs: request.ttlMs ?? caps!.maxTtlMs,
        scope: request.scope ?? (caps!.scopes.includes("actor") ? "actor" : "conversation"),
        ...(request.conditions === undefined ? {} : { conditions: request.conditions }),
        ...(request.budget === undefined ? {} : { budget: request.budget }),
      };
      return grants.issue({
        capabilityId,
        actor: options.actor ?? defaultActor,
        surface: options.surface ?? "test",
        issuers: options.issuers ?? [TEST_APPROVER],
        grant: full,
        ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
        ...(options.types === undefined ? {} : { types: options.types }),
      });
    },
  };
}

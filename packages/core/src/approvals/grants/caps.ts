import { describeValue } from "../../internal/describe-value.js";
import { isPlainObject } from "../../internal/plain-object.js";
import { CapabilityError } from "../../errors/capability-error.js";
import type { GrantCaps, GrantRequest, GrantScope } from "./types.js";

const SCOPES: readonly GrantScope[] = ["conversation", "actor"];

/**
 * What is wrong with `meta.agent.approval.grants` (docs/guides/standing-grants.md), one message per problem, each
 * starting where `approval.grants` ends (` must …`, `.maxUses must …`). Empty when it is valid caps.
 */
export function grantCapsProblems(caps: unknown): string[] {
  if (!isPlainObject(caps)) return [` must be a plain object { maxUses, maxTtlMs, scopes }, got ${describeValue(caps)}`];
  const problems: string[] = [];
  for (const key of Object.keys(caps)) {
    if (key !== "maxUses" && key !== "maxTtlMs" && key !== "scopes") problems.push(`.${key} is not a grant cap (maxUses, maxTtlMs, scopes)`);
  }
  const { maxUses, maxTtlMs, scopes } = caps;
  if (typeof maxUses !== "number" || !Number.isSafeInteger(maxUses) || maxUses < 1) problems.push(`.maxUses must be an integer >= 1, got ${describeValue(maxUses)}`);
  if (typeof maxTtlMs !== "number" || !Number.isFinite(maxTtlMs) || maxTtlMs <= 0) problems.push(`.maxTtlMs must be a finite number > 0, got ${describeValue(maxTtlMs)}`);
  const validScopes =
    Array.isArray(scopes) && scopes.length > 0 && scopes.every((scope) => SCOPES.includes(scope as GrantScope)) && new Set(scopes).size === scopes.length;
  if (!validScopes) problems.push(`.scopes must be a non-empty array of distinct "conversation" | "actor", got ${describeValue(scopes)}`);
  return problems;
}

/**
 * Refuses a request above the capability's caps with `GRANT_EXCEEDS_CAPS`: more uses than `maxUses`, a lifetime past
 * `maxTtlMs`, or a scope the capability does not allow. Returns the lifetime the grant gets (never above the cap).
 */
export function checkWithinCaps(capabilityId: string, request: GrantRequest, caps: GrantCaps): number {
  const over: string[] = [];
  if (request.uses > caps.maxUses) over.push(`uses ${request.uses} > maxUses ${caps.maxUses}`);
  if (request.ttlMs > caps.maxTtlMs) over.push(`ttlMs ${request.ttlMs} > maxTtlMs ${caps.maxTtlMs}`);
  if (!caps.scopes.includes(request.scope)) over.push(`scope "${request.scope}" not in [${caps.scopes.join(", ")}]`);
  if (over.length > 0) {
    throw new CapabilityError({ code: "GRANT_EXCEEDS_CAPS", cause: new Error(`The grant for ${capabilityId} exceeds the capability's caps: ${over.join("; ")}`) });
  }
  return Math.min(request.ttlMs, caps.maxTtlMs);
}

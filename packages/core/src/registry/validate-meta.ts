import { isReservedToolName } from "./tool-name.js";
import { frozenCopy } from "../internal/deep-freeze.js";
import { describeValue } from "../internal/describe-value.js";
import { isPlainObject } from "../internal/plain-object.js";
import { pinPolicy } from "../policy/pin-policy.js";
import { isValidQuorum } from "../approvals/quorum.js";
import { grantCapsProblems } from "../approvals/grants/caps.js";
import { escalationProblems } from "../approvals/notify/escalation.js";
import type { AgentMeta } from "../capability/types.js";
import { EXPOSURE_SURFACES, RISK_LEVELS, SIDE_EFFECTS, isWriteLike, type SideEffect } from "../vocabulary/types.js";

const AGENT_META_KEYS: ReadonlySet<string> = new Set([
  "description",
  "expose",
  "sideEffect",
  "risk",
  "tags",
  "timeoutMs",
  "retry",
  "idempotent",
  "approval",
  "redact",
  "policies",
  "discovery",
  "stream",
  "adapters",
]);
const DISCOVERY_MODES: readonly string[] = ["discoverable", "contextual"];
const MCP_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * Validates `meta.agent` of the capability `id` against docs/architecture/spec/core.md#core-2-2, pushing one message per
 * problem (each prefixed with `id`) onto `problems`. Returns the normalized, frozen meta
 * (docs/architecture/spec/core.md#core-1-1: tags/policies/idempotent defaulted) when it found none, else `undefined`.
 */
export function validateAgentMeta(id: string, agent: unknown, problems: string[]): AgentMeta | undefined {
  if (!isPlainObject(agent)) {
    problems.push(`${id}: agent must be a plain object (AgentMeta), got ${describeValue(agent)}`);
    return undefined;
  }
  const before = problems.length;

  for (const key of Object.keys(agent)) {
    if (!AGENT_META_KEYS.has(key)) bad(problems, id, `${key} is not an AgentMeta key (unknown keys are rejected)`);
  }

  const { description, expose, sideEffect, risk } = agent;
  if (typeof description !== "string" || description.trim() === "") {
    bad(problems, id, `description is required and must be a non-blank string, got ${describeValue(description)}`);
  }

  if (expose === undefined) {
    bad(problems, id, "expose is required (use {} to reach the capability from nowhere)");
  } else if (!isPlainObject(expose)) {
    bad(problems, id, `expose must be a plain object of surface → boolean, got ${describeValue(expose)}`);
  } else {
    for (const surface of Object.keys(expose)) {
      const value = expose[surface];
      if (!(EXPOSURE_SURFACES as readonly string[]).includes(surface)) {
        bad(problems, id, `expose.${surface} is not an exposure surface (expected one of ${EXPOSURE_SURFACES.join(", ")})`);
      } else if (typeof value !== "boolean") {
        // docs/architecture/spec/core.md#core-15-item-1: truthy non-booleans are build errors, never exposure (SI-1).
        bad(problems, id, `expose.${surface} must be a boolean, got ${describeValue(value)}`);
      }
    }
  }

  const validSideEffect = (SIDE_EFFECTS as readonly unknown[]).includes(sideEffect);
  if (!validSideEffect) bad(problems, id, `sideEffect must be one of ${SIDE_EFFECTS.join(", ")}, got ${describeValue(sideEffect)}`);
  if (!(RISK_LEVELS as readonly unknown[]).includes(risk)) {
    bad(problems, id, `risk must be one of ${RISK_LEVELS.join(", ")}, got ${describeValue(risk)}`);
  }

  const { tags, timeoutMs, idempotent, retry } = agent;
  if (tags !== undefined && !isStringArray(tags)) bad(problems, id, `tags must be an array of strings, got ${describeValue(tags)}`);
  if (timeoutMs !== undefined && !isPositiveFinite(timeoutMs)) {
    bad(problems, id, `timeoutMs must be a finite number > 0, got ${describeValue(timeoutMs)}`);
  }
  if (idempotent !== undefined && typeof idempotent !== "boolean") {
    bad(problems, id, `idempotent must be a boolean, got ${describeValue(idempotent)}`);
  }

  if (retry !== undefined) {
    if (!isPlainObject(retry)) {
      bad(problems, id, `retry must be a plain object, got ${describeValue(retry)}`);
    } else {
      const { maxAttempts, backoffMs, retryOn } = retry;
      if (!Number.isInteger(maxAttempts) || (maxAttempts as number) < 0) {
        bad(problems, id, `retry.maxAttempts must be an integer >= 0, got ${describeValue(maxAttempts)}`);
      } else if ((maxAttempts as number) > 0 && validSideEffect && isWriteLike(sideEffect as SideEffect) && idempotent !== true) {
        // SI-11: a write may run twice only when the author declares it idempotent.
        bad(
          problems,
          id,
          `retry.maxAttempts is ${maxAttempts as number} on a write-like capability (sideEffect "${sideEffect as string}") ` +
            "without idempotent: true; writes are never auto-retried (SI-11). Set idempotent: true or remove retry",
        );
      }
      if (backoffMs !== undefined && !isPositiveFinite(backoffMs)) {
        bad(problems, id, `retry.backoffMs must be a finite number > 0, got ${describeValue(backoffMs)}`);
      }
      if (retryOn !== undefined && typeof retryOn !== "function") {
        bad(problems, id, `retry.retryOn must be a function, got ${describeValue(retryOn)}`);
      }
    }
  }

  const { approval, redact, policies, discovery, adapters } = agent;
  if (approval !== undefined) {
    if (!isPlainObject(approval)) {
      bad(problems, id, `approval must be a plain object, got ${describeValue(approval)}`);
    } else {
      if (approval.required !== undefined && typeof approval.required !== "boolean") {
        bad(problems, id, `approval.required must be a boolean, got ${describeValue(approval.required)}`);
      }
      if (approval.type !== undefined && typeof approval.type !== "string") {
        bad(problems, id, `approval.type must be a string, got ${describeValue(approval.type)}`);
      }
      if (approval.expiresInMs !== undefined && !isPositiveFinite(approval.expiresInMs)) {
        bad(problems, id, `approval.expiresInMs must be a finite number > 0, got ${describeValue(approval.expiresInMs)}`);
      }
      if (approval.quorum !== undefined && !isValidQuorum(approval.quorum)) {
        bad(problems, id, `approval.quorum must be an integer >= 1, got ${describeValue(approval.quorum)}`);
      }
      if (approval.grants !== undefined) {
        for (const problem of grantCapsProblems(approval.grants)) bad(problems, id, `approval.grants${problem}`);
      }
      if (approval.escalate !== undefined) {
        for (const problem of escalationProblems(approval.escalate)) bad(problems, id, `approval.escalate${problem}`);
      }
    }
  }

  if (redact !== undefined) {
    if (!isPlainObject(redact)) {
      bad(problems, id, `redact must be a plain object, got ${describeValue(redact)}`);
    } else {
      if (redact.output !== undefined && typeof redact.output !== "function") {
        bad(problems, id, `redact.output must be a function, got ${describeValue(redact.output)}`);
      }
      if (redact.approvalInput !== undefined && typeof redact.approvalInput !== "function") {
        bad(problems, id, `redact.approvalInput must be a function, got ${describeValue(redact.approvalInput)}`);
      }
    }
  }

  if (policies !== undefined) {
    if (!Array.isArray(policies)) {
      bad(problems, id, `policies must be an array of policies, got ${describeValue(policies)}`);
    } else {
      for (let i = 0; i < policies.length; i++) {
        if (!isWellFormedPolicy(policies[i])) {
          bad(
            problems,
            id,
            `policies[${i}] must be a policy { name: string; phases: array; evaluate: function } ` +
              `(build it with definePolicy), got ${describeValue(policies[i])}`,
          );
        }
      }
    }
  }

  if (discovery !== undefined && !DISCOVERY_MODES.includes(discovery as string)) {
    bad(problems, id, `discovery must be "discoverable" or "contextual", got ${describeValue(discovery)}`);
  }

  if (adapters !== undefined) validateAdapters(adapters, id, problems);
  if (agent.stream !== undefined) validateStreamBounds(agent.stream, id, problems);

  if (problems.length !== before) return undefined;
  return normalizeAgentMeta(agent as AgentMeta);
}

/** `meta.stream` (streaming capabilities): that the procedure streams at all is checked by the walk, which sees its output. */
function validateStreamBounds(stream: unknown, id: string, problems: string[]): void {
  if (!isPlainObject(stream)) {
    bad(problems, id, `stream must be a plain object { idleTimeoutMs?, maxEvents? }, got ${describeValue(stream)}`);
    return;
  }
  for (const key of Object.keys(stream)) {
    if (key !== "idleTimeoutMs" && key !== "maxEvents") bad(problems, id, `stream.${key} is not a stream bound (expected idleTimeoutMs or maxEvents)`);
  }
  if (stream.idleTimeoutMs !== undefined && !isPositiveFinite(stream.idleTimeoutMs)) {
    bad(problems, id, `stream.idleTimeoutMs must be a finite number > 0, got ${describeValue(stream.idleTimeoutMs)}`);
  }
  if (stream.maxEvents !== undefined && !(Number.isInteger(stream.maxEvents) && (stream.maxEvents as number) >= 1)) {
    bad(problems, id, `stream.maxEvents must be an integer >= 1, got ${describeValue(stream.maxEvents)}`);
  }
}

// Unknown keys inside `adapters` are ignored on purpose: they are protocol hints (docs/architecture/spec/core.md#core-2-2).
function validateAdapters(adapters: unknown, id: string, problems: string[]): void {
  if (!isPlainObject(adapters)) {
    bad(problems, id, `adapters must be a plain object, got ${describeValue(adapters)}`);
    return;
  }
  const { aiSdk, mcp } = adapters;
  if (aiSdk !== undefined) {
    if (!isPlainObject(aiSdk)) bad(problems, id, `adapters.aiSdk must be a plain object, got ${describeValue(aiSdk)}`);
    else checkToolName(aiSdk.toolName, "adapters.aiSdk.toolName", id, problems);
  }
  if (mcp === undefined) return;
  if (!isPlainObject(mcp)) {
    bad(problems, id, `adapters.mcp must be a plain object, got ${describeValue(mcp)}`);
    return;
  }
  checkToolName(mcp.toolName, "adapters.mcp.toolName", id, problems);
  const scopes = mcp.scopes;
  // OAuth scope tokens (RFC 6749 §3.3): they end up inside a WWW-Authenticate quoted string.
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((scope) => typeof scope !== "string" || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope)))) {
    bad(problems, id, `adapters.mcp.scopes must be a non-empty array of OAuth scope tokens, got ${describeValue(scopes)}`);
  }
  const annotations = mcp.annotations;
  if (annotations === undefined) return;
  if (!isPlainObject(annotations)) {
    bad(problems, id, `adapters.mcp.annotations must be a plain object, got ${describeValue(annotations)}`);
    return;
  }
  if (annotations.title !== undefined && typeof annotations.title !== "string") {
    bad(problems, id, `adapters.mcp.annotations.title must be a string, got ${describeValue(annotations.title)}`);
  }
  for (const hint of MCP_HINTS) {
    const value = annotations[hint];
    if (value !== undefined && typeof value !== "boolean") {
      bad(problems, id, `adapters.mcp.annotations.${hint} must be a boolean, got ${describeValue(value)}`);
    }
  }
}

function checkToolName(toolName: unknown, where: string, id: string, problems: string[]): void {
  if (toolName !== undefined && (typeof toolName !== "string" || toolName === "")) {
    bad(problems, id, `${where} must be a non-empty string, got ${describeValue(toolName)}`);
  } else if (typeof toolName === "string" && isReservedToolName(toolName)) {
    bad(problems, id, `${where} ${JSON.stringify(toolName)} is reserved (an Object.prototype key, which a tool set object cannot hold); choose another name`);
  }
}

const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * The registry's view of valid meta (docs/architecture/spec/core.md#core-1-1, decided there): a frozen shallow copy with
 * `tags`, `policies` and `idempotent` defaulted. `expose`, `tags` and `policies` are copied and
 * frozen too, so editing the source object later cannot widen exposure or change policy scope.
 */
export function normalizeAgentMeta(agent: AgentMeta): AgentMeta {
  // Object.assign onto a fixed literal, not `{ ...agent, tags }`: V8 builds spread-with-overrides
  // literals about ten times slower, and registry build time is budgeted (docs/architecture/spec/core.md#core-16).
  const meta: AgentMeta = Object.assign(
    { description: "", expose: {}, sideEffect: "none", risk: "low", tags: NO_ITEMS, policies: NO_ITEMS, idempotent: false },
    agent,
  );
  meta.expose = Object.freeze(Object.assign({}, agent.expose));
  meta.tags = agent.tags === undefined ? (NO_ITEMS as never[]) : (Object.freeze(agent.tags.slice()) as string[]);
  // Pinned: a policy's mode cannot change after the registry has been built (ADR-028).
  meta.policies = agent.policies === undefined ? (NO_ITEMS as never[]) : (Object.freeze(agent.policies.map(pinPolicy)) as never[]);
  // Every policy reads this meta as req.capability.meta: a policy (a shadow above all) writing to its nested parts
  // must not lower a quorum, change an approval type or drop redaction for every later call.
  if (agent.approval !== undefined) meta.approval = frozenCopy(agent.approval);
  if (agent.redact !== undefined) meta.redact = frozenCopy(agent.redact);
  if (agent.retry !== undefined) meta.retry = frozenCopy(agent.retry);
  if (agent.adapters !== undefined) meta.adapters = frozenCopy(agent.adapters);
  if (agent.stream !== undefined) meta.stream = frozenCopy(agent.stream);
  if (agent.idempotent === undefined) meta.idempotent = false;
  return Object.freeze(meta);
}

// Every message names the capability and the meta field as the docs and the other build messages do:
// `orders.refund: meta.risk must be …`.
function bad(problems: string[], id: string, message: string): void {
  problems.push(`${id}: meta.${message}`);
}

function isWellFormedPolicy(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const policy = value as { name?: unknown; phases?: unknown; evaluate?: unknown; mode?: unknown };
  return (
    typeof policy.name === "string" &&
    Array.isArray(policy.phases) &&
    typeof policy.evaluate === "function" &&
    (policy.mode === undefined || policy.mode === "enforce" || policy.mode === "shadow")
  );
}

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

function isPositiveFinite(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

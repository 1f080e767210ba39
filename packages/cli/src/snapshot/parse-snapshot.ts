import type { CapabilityEntry, CapabilitySnapshot, RuntimePolicyEntry } from "./types.js";

const SURFACES = ["direct", "aiSdk", "mcp", "workflow", "test"];
const SIDE_EFFECTS = ["none", "read", "write", "destructive", "external"];
const RISKS = ["low", "medium", "high", "critical"];
const PHASES = ["discovery", "invocation", "execution"];

/**
 * Reads a committed snapshot of version 1, 2 or 3 and normalizes it (docs/architecture/spec/cli.md#cli-6-3): v1 loses `runtime`
 * ("never observed"), a capability without `discovery` reads as `"discoverable"` in every version (docs/architecture/spec/cli.md#cli-6-2),
 * v2 policies have unknown scope. Throws an `Error` for any other version; for a structurally invalid file of a
 * readable version, the message names the faulty entry, not the version.
 */
export function parseSnapshot(text: string): CapabilitySnapshot {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw unreadable("none", `not JSON (${(error as Error).message})`);
  }
  const version = isRecord(data) ? data.version : undefined;
  if (version !== 1 && version !== 2 && version !== 3) {
    throw unreadable(version === undefined ? "none" : JSON.stringify(version));
  }
  const problem = (reason: string) => new Error(`invalid capability snapshot (version ${version}): ${reason}`);
  const record = data as Record<string, unknown>;

  if (!Array.isArray(record.capabilities)) throw problem("`capabilities` is not an array");
  const capabilities = record.capabilities.map((value, index) => readCapability(value, `capabilities[${index}]`, problem));
  const excluded = readStrings(record.excluded, "excluded", problem);
  const unexposed = readStrings(record.unexposed, "unexposed", problem);

  const snapshot: CapabilitySnapshot = { version, capabilities, excluded, unexposed };
  // v1 never observed runtime policies; whatever a v1 file says about them is ignored.
  if (version >= 2 && record.runtime !== undefined) {
    if (!isRecord(record.runtime) || !Array.isArray(record.runtime.policies)) throw problem("`runtime.policies` is not an array");
    snapshot.runtime = {
      policies: record.runtime.policies.map((value, index) => readRuntimePolicy(value, version, `runtime.policies[${index}]`, problem)),
    };
  }
  return snapshot;
}

function unreadable(got: string, reason?: string): Error {
  const message = `not a capability snapshot this version can read (got version ${got}, expected 1, 2 or 3)`;
  return new Error(reason === undefined ? message : `${message}: ${reason}`);
}

type Problem = (reason: string) => Error;

function readCapability(value: unknown, where: string, problem: Problem): CapabilityEntry {
  if (!isRecord(value)) throw problem(`${where} is not an object`);
  const id = value.id;
  if (typeof id !== "string" || id === "") throw problem(`${where}.id is not a non-empty string`);
  const at = `${where} (${id})`;
  const need = (ok: boolean, field: string) => {
    if (!ok) throw problem(`${at}.${field} is invalid`);
  };

  need(value.description === undefined || typeof value.description === "string", "description");
  need(SIDE_EFFECTS.includes(value.sideEffect as string), "sideEffect");
  need(RISKS.includes(value.risk as string), "risk");
  need(isStringList(value.expose) && value.expose.every((surface) => SURFACES.includes(surface)), "expose");
  need(value.toolNames === undefined || (isRecord(value.toolNames) && Object.values(value.toolNames).every((n) => typeof n === "string")), "toolNames");
  const discovery = value.discovery ?? "discoverable";
  need(discovery === "discoverable" || discovery === "contextual", "discovery");
  need(value.approval === undefined || (isRecord(value.approval) && typeof value.approval.required === "boolean"), "approval");
  if (isRecord(value.approval)) {
    need(value.approval.type === undefined || typeof value.approval.type === "string", "approval.type");
    need(value.approval.expiresInMs === undefined || isNumber(value.approval.expiresInMs), "approval.expiresInMs");
    need(value.approval.quorum === undefined || (Number.isSafeInteger(value.approval.quorum) && (value.approval.quorum as number) >= 1), "approval.quorum");
    need(value.approval.grants === undefined || isGrantCaps(value.approval.grants), "approval.grants");
  }
  need(typeof value.idempotent === "boolean", "idempotent");
  need(
    value.retry === undefined ||
      (isRecord(value.retry) && isNumber(value.retry.maxAttempts) && typeof value.retry.retryOn === "boolean" &&
        (value.retry.backoffMs === undefined || isNumber(value.retry.backoffMs))),
    "retry",
  );
  need(value.timeoutMs === undefined || isNumber(value.timeoutMs), "timeoutMs");
  need(isStringList(value.tags), "tags");
  need(isStringList(value.policies), "policies");
  need(value.shadowPolicies === undefined || isStringList(value.shadowPolicies), "shadowPolicies");
  need(
    value.redact === undefined ||
      (isRecord(value.redact) && typeof value.redact.output === "boolean" && typeof value.redact.approvalInput === "boolean"),
    "redact",
  );
  need(value.inputSchemaHash === null || typeof value.inputSchemaHash === "string", "inputSchemaHash");

  return { ...(value as CapabilityEntry), discovery: discovery as CapabilityEntry["discovery"] };
}

function readRuntimePolicy(value: unknown, version: number, where: string, problem: Problem): RuntimePolicyEntry {
  if (!isRecord(value)) throw problem(`${where} is not an object`);
  if (typeof value.name !== "string") throw problem(`${where}.name is not a string`);
  if (!isStringList(value.phases) || !value.phases.every((phase) => PHASES.includes(phase))) {
    throw problem(`${where}.phases is invalid`);
  }
  const entry: RuntimePolicyEntry = { name: value.name, phases: value.phases as RuntimePolicyEntry["phases"] };
  // v2 recorded no scope: every policy's scope is unknown (docs/architecture/spec/cli.md#cli-6-3).
  if (version < 3) return entry;
  if (value.scope !== undefined) {
    if (!isRecord(value.scope)) throw problem(`${where}.scope is not an object`);
    entry.scope = value.scope as RuntimePolicyEntry["scope"];
  }
  if (value.candidates !== undefined) {
    if (!isStringList(value.candidates)) throw problem(`${where}.candidates is not a string array`);
    entry.candidates = value.candidates;
  }
  if (value.mode !== undefined) {
    if (value.mode !== "shadow") throw problem(`${where}.mode is not "shadow"`);
    entry.mode = "shadow";
  }
  return entry;
}

function readStrings(value: unknown, field: string, problem: Problem): string[] {
  if (!isStringList(value)) throw problem(`\`${field}\` is not a string array`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

// The caps as core accepts them (docs/guides/standing-grants.md): a baseline cannot record caps no runtime would take.
function isGrantCaps(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { maxUses, maxTtlMs, scopes } = value;
  return (
    Number.isSafeInteger(maxUses) && (maxUses as number) >= 1 &&
    isNumber(maxTtlMs) && maxTtlMs > 0 &&
    isStringList(scopes) && scopes.length > 0 && new Set(scopes).size === scopes.length &&
    scopes.every((scope) => scope === "actor" || scope === "conversation")
  );
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

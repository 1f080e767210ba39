import { isExposureSurface } from "../../vocabulary/types.js";
import { CORRELATION_ID_PATTERN, INVOCATION_ID_PATTERN } from "../../client/protocol.js";
import { createDigestCache } from "../descriptors/digest.js";
import { describeRemote } from "./describe.js";
import { invokeJournaled } from "./invoke.js";
import { reconcileJournaled } from "./reconcile.js";
import { resolveInvocation } from "./resolve.js";
import { resumeJournaled } from "./resume.js";
import { createEmitter, serviceToolNaming, type ServiceState } from "./state.js";
import type { InvocationRecord } from "../journal/types.js";
import { invocationIdempotencyKey } from "./hashing.js";
import type { InvocationService, InvocationServiceOptions, InvocationServiceRecord } from "./types.js";

const REMOTE_SURFACES = new Set(["aiSdk", "mcp", "workflow"]);

/**
 * The journaled wrapper around a runtime (docs/architecture/spec/distributed.md#distributed-3-1): claims, fencing, lease renewal, replay of
 * settled results and application-only resolution. Create it once per module (the journal is shared) and
 * pass it the per-request runtime on each call.
 *
 * @example
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
 * declare const runtime: AgentRuntime<{ tenant: string }>, context: { tenant: string };
 * declare const actor: Actor, input: { orderId: string }, invocationId: string;
 * const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "shop", revision: process.env.GIT_SHA! });
 * const result = await service.invoke(runtime, "orders.refund", input, { actor, context, surface: "aiSdk", invocationId });
 */
export function createInvocationService(o: InvocationServiceOptions): InvocationService {
  assertServiceOptions(o);
  const now = o.now ?? (() => new Date());
  const toolNaming = o.toolNaming === undefined ? undefined : { ...o.toolNaming };
  const s: ServiceState = {
    journal: o.journal,
    namespace: o.namespace,
    revision: o.revision,
    leaseMs: o.leaseMs ?? 30_000,
    maxStoredOutputBytes: o.maxStoredOutputBytes ?? 262_144,
    toolNaming,
    now,
    digestOf: createDigestCache({ namespace: o.namespace, revision: o.revision, toolNaming }),
    emit: createEmitter(o.onEvent, now),
  };

  const service: InvocationService = Object.freeze({
    namespace: s.namespace,
    durable: s.journal.durable === true,
    async describe(rt, d) {
      assertRuntime(rt, "describe");
      if (typeof d !== "object" || d === null) throw new TypeError("describe: options must be { actor, context, surface, scope? }.");
      if (!REMOTE_SURFACES.has(d.surface)) throw new TypeError(`describe: surface must be "aiSdk", "mcp" or "workflow", got ${JSON.stringify(d.surface)}.`);
      return describeRemote(s, rt, d);
    },
    async invoke(rt, capabilityId, input, i) {
      assertRuntime(rt, "invoke");
      if (typeof capabilityId !== "string" || capabilityId.length === 0) throw new TypeError("invoke: capabilityId must be a non-empty string.");
      assertCallOptions(i, "invoke");
      if (i.correlationId !== undefined && (typeof i.correlationId !== "string" || !CORRELATION_ID_PATTERN.test(i.correlationId))) {
        throw new TypeError("invoke: correlationId must be 1 to 200 printable characters.");
      }
      if (i.expectedDigest !== undefined && typeof i.expectedDigest !== "string") throw new TypeError("invoke: expectedDigest must be a string.");
      return invokeJournaled(s, rt, capabilityId, input, i);
    },
    async resume(rt, approvalId, r) {
      assertRuntime(rt, "resume");
      if (typeof approvalId !== "string" || approvalId.length === 0) throw new TypeError("resume: approvalId must be a non-empty string.");
      assertCallOptions(r, "resume");
      return resumeJournaled(s, rt, approvalId, r);
    },
    async reconcile(invocationId, r) {
      assertInvocationId(invocationId, "reconcile");
      if (typeof r !== "object" || r === null || !isExposureSurface(r.surface)) throw new TypeError("reconcile: options must be { actor, surface }.");
      return reconcileJournaled(s, invocationId, r);
    },
    async get(id) {
      const record = await s.journal.get({ namespace: s.namespace, invocationId: id });
      return record === null ? null : withIdempotencyKey(s.namespace, record);
    },
    async list(f = {}) {
      if (s.journal.list === undefined) throw new Error("This invocation journal does not implement list().");
      const records = await s.journal.list({ namespace: s.namespace, ...f });
      return Promise.all(records.map((record) => withIdempotencyKey(s.namespace, record)));
    },
    async resolve(id, a) {
      return resolveInvocation(s, id, a);
    },
  } satisfies InvocationService);
  serviceToolNaming.set(service, toolNaming);
  return service;
}

function assertServiceOptions(o: InvocationServiceOptions): void {
  const example = "createInvocationService({ journal, namespace, revision })";
  if (typeof o !== "object" || o === null) throw new TypeError(`createInvocationService needs options: ${example}.`);
  const j = o.journal as unknown as Partial<Record<string, unknown>> | undefined;
  const methods = ["begin", "claimSuspended", "renew", "finish", "get", "getByApproval", "resolve"];
  if (typeof j !== "object" || j === null || methods.some((m) => typeof j[m] !== "function")) {
    throw new TypeError(`createInvocationService: journal must implement InvocationJournal (${methods.join(", ")}), e.g. createInMemoryInvocationJournal().`);
  }
  if (typeof o.namespace !== "string" || o.namespace.length === 0) throw new TypeError("createInvocationService: namespace must be a non-empty string.");
  if (typeof o.revision !== "string" || o.revision.length === 0) {
    throw new TypeError("createInvocationService: revision must be a non-empty string, the application's deployment identifier.");
  }
  for (const key of ["leaseMs", "maxStoredOutputBytes"] as const) {
    const value = o[key];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new TypeError(`createInvocationService: ${key} must be a finite number > 0.`);
    }
  }
  if (o.toolNaming !== undefined) {
    if (typeof o.toolNaming !== "object" || o.toolNaming === null) throw new TypeError("createInvocationService: toolNaming must be { aiSdk?, mcp? }.");
    for (const [surface, naming] of Object.entries(o.toolNaming)) {
      if (surface !== "aiSdk" && surface !== "mcp") throw new TypeError(`createInvocationService: unknown toolNaming surface "${surface}".`);
      if (naming !== undefined && typeof naming !== "function") throw new TypeError(`createInvocationService: toolNaming.${surface} must be a function (id) => string.`);
    }
  }
  if (o.onEvent !== undefined && typeof o.onEvent !== "function") throw new TypeError("createInvocationService: onEvent must be a function.");
  if (o.now !== undefined && typeof o.now !== "function") throw new TypeError("createInvocationService: now must be a function returning a Date.");
}

function assertRuntime(rt: unknown, op: string): void {
  const r = rt as { invoke?: unknown; registry?: unknown } | null;
  if (typeof r !== "object" || r === null || typeof r.invoke !== "function" || typeof r.registry !== "object") {
    throw new TypeError(`${op}: the first argument must be an AgentRuntime (one per request).`);
  }
}

function assertInvocationId(id: unknown, op: string): void {
  if (typeof id !== "string" || !INVOCATION_ID_PATTERN.test(id)) {
    throw new TypeError(`${op}: invocationId must match ${INVOCATION_ID_PATTERN} (1 to 128 characters).`);
  }
}

function assertCallOptions(o: { invocationId?: unknown; surface?: unknown; signal?: unknown; onEvent?: unknown; onProgress?: unknown } | null, op: string): void {
  if (typeof o !== "object" || o === null) throw new TypeError(`${op}: options must be { actor, context, surface, invocationId, ... }.`);
  assertInvocationId(o.invocationId, op);
  if (!isExposureSurface(o.surface)) throw new TypeError(`${op}: surface must be an exposure surface, got ${JSON.stringify(o.surface)}.`);
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) throw new TypeError(`${op}: signal must be an AbortSignal.`);
  if (o.onEvent !== undefined && typeof o.onEvent !== "function") throw new TypeError(`${op}: onEvent must be a function.`);
  if (o.onProgress !== undefined && typeof o.onProgress !== "function") throw new TypeError(`${op}: onProgress must be a function.`);
}

/** Derived, never stored: the key is a pure function of the namespace and the invocation id (docs/architecture/spec/distributed.md#distributed-5-1). */
async function withIdempotencyKey(namespace: string, record: InvocationRecord): Promise<InvocationServiceRecord> {
  return { ...record, idempotencyKey: await invocationIdempotencyKey(namespace, record.invocationId) };
}

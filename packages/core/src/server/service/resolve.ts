import { toAuditActorRef } from "../../audit/actor-ref.js";
import { isWellFormedActor } from "../../vocabulary/types.js";
import { REMOTE_PROTOCOL } from "../../client/protocol.js";
import type { JournalResolveTarget, InvocationRecord } from "../journal/types.js";
import { encodeOutcome } from "./outcome-codec.js";
import { GENERIC_ERROR, serviceFailure } from "./project-result.js";
import { subjectOf } from "./answer-existing.js";
import type { ServiceState } from "./state.js";
import type { ResolveArgs } from "./types.js";

/** Thrown by `service.resolve` when the row is not `unknown` or lapsed at the expected fence: a live claim may still settle. */
export class InvocationNotResolvableError extends Error {
  override readonly name = "InvocationNotResolvableError";
  readonly invocationId: string;
  constructor(invocationId: string) {
    super(
      `Invocation ${invocationId} is not resolvable: only an unknown outcome or a lapsed claim at the expected fence can be resolved. ` +
        "Read it again with service.get() and pass its current fence.",
    );
    this.invocationId = invocationId;
  }
}

/**
 * `service.resolve`, for the application only (docs/architecture/spec/distributed.md#distributed-5-5): asserts a domain fact only the application
 * can check. Never routed: a possibly model-driven client must not unlock a second execution.
 */
export async function resolveInvocation(s: ServiceState, invocationId: string, a: ResolveArgs): Promise<InvocationRecord> {
  assertResolveArgs(invocationId, a);
  const key = { namespace: s.namespace, invocationId };
  const resolution = a.resolution;
  let to: JournalResolveTarget;
  if (resolution.kind === "not-applied") {
    to = { state: "pending" };
  } else {
    const envelope =
      resolution.kind === "applied"
        ? ({ protocol: REMOTE_PROTOCOL, invocationId, executionId: "", replayed: false, status: "completed", output: resolution.output } as const)
        : serviceFailure(
            invocationId,
            resolution.publicMessage === undefined ? GENERIC_ERROR : { code: "EXECUTION_FAILED", message: resolution.publicMessage, retryable: false },
          );
    to = { state: "settled", outcome: encodeOutcome(envelope, s.maxStoredOutputBytes) };
  }
  const record: NonNullable<InvocationRecord["resolution"]> = { kind: resolution.kind, by: toAuditActorRef(a.by), at: s.now() };
  if (a.note !== undefined) record.note = a.note;
  const resolved = await s.journal.resolve(key, a.expectedFence, to, record);
  if (resolved === null) throw new InvocationNotResolvableError(invocationId);
  s.emit("resolved", subjectOf(resolved), { kind: resolution.kind, fence: resolved.fence });
  return resolved;
}

function assertResolveArgs(invocationId: unknown, a: ResolveArgs): void {
  if (typeof invocationId !== "string" || invocationId.length === 0) throw new TypeError("resolve: the invocation id must be a non-empty string.");
  if (typeof a !== "object" || a === null) throw new TypeError("resolve: arguments must be { expectedFence, by, resolution, note? }.");
  if (!Number.isInteger(a.expectedFence) || a.expectedFence < 1) throw new TypeError("resolve: expectedFence must be the record's fence, an integer ≥ 1.");
  if (!isWellFormedActor(a.by)) throw new TypeError("resolve: `by` must be a well-formed actor: the person or service asserting the outcome.");
  if (a.note !== undefined && typeof a.note !== "string") throw new TypeError("resolve: note must be a string.");
  const kind = (a.resolution as { kind?: unknown } | undefined)?.kind;
  if (kind !== "applied" && kind !== "failed" && kind !== "not-applied") {
    throw new TypeError('resolve: resolution.kind must be "applied", "failed" or "not-applied".');
  }
  const publicMessage = (a.resolution as { publicMessage?: unknown }).publicMessage;
  if (kind === "failed" && publicMessage !== undefined && (typeof publicMessage !== "string" || publicMessage.length === 0)) {
    throw new TypeError("resolve: resolution.publicMessage must be a non-empty string.");
  }
}

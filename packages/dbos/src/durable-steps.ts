import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Actor, AgentRuntime, ApprovalStatus } from "@orpc-agent/core";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import type { InvocationState } from "@orpc-agent/core/server";
import type { StepCall, StepsState } from "./state.js";
import { stepName } from "./topics.js";

// The adapter's one surface (docs/architecture/spec/adapters.md#adapters-1-3, docs/architecture/spec/adapters.md#adapters-1-8).
const SURFACE = "workflow" as const;

// Never retried by DBOS: the runtime owns retries (SI-11), and an outcome-unknown must never turn into a
// second attempt (D-4). Each step's checkpoint holds the service's plain projection (no `cause`).
const stepConfig = (name: string) => ({ name, retriesAllowed: false });

/** `service.invoke` as one DBOS step; runtime, actor and context are built inside, fresh on every execution. */
export function invokeStep<TContext, O>(s: StepsState<TContext>, call: StepCall, n: number): Promise<RemoteExecutionResult<O>> {
  return DBOS.runStep(
    () =>
      withRequest(s, (rt, actor, context) =>
        s.service.invoke<TContext, O>(rt, call.capabilityId, call.input, {
          actor,
          context,
          surface: SURFACE,
          invocationId: call.invocationId,
          correlationId: call.workflowId,
        }),
      ),
    stepConfig(stepName("invoke", call.key, n)),
  );
}

/** `service.resume` with the original invocation identity, as one DBOS step. */
export function resumeStep<TContext, O>(s: StepsState<TContext>, call: StepCall, approvalId: string, n: number): Promise<RemoteExecutionResult<O>> {
  return DBOS.runStep(
    () =>
      withRequest(s, (rt, actor, context) =>
        s.service.resume<TContext, O>(rt, approvalId, { actor, context, surface: SURFACE, invocationId: call.invocationId }),
      ),
    stepConfig(stepName("resume", call.key, n)),
  );
}

/** The approval's status as the coordinator reports it now; `"unavailable"` when it cannot be read (keep waiting). */
export function approvalStatusStep<TContext>(s: StepsState<TContext>, call: StepCall, approvalId: string, n: number): Promise<ApprovalStatus | "absent" | "unavailable"> {
  return DBOS.runStep(async () => {
    try {
      const rt = await s.runtime();
      return (await rt.approvals.get(approvalId))?.status ?? "absent";
    } catch {
      return "unavailable";
    }
  }, stepConfig(stepName("approval", call.key, n)));
}

/** The journal state of the call's invocation; `"unavailable"` when the journal cannot be read (keep waiting). */
export function journalStateStep<TContext>(s: StepsState<TContext>, call: StepCall, n: number): Promise<InvocationState | "absent" | "unavailable"> {
  return DBOS.runStep(async () => {
    try {
      return (await s.service.get(call.invocationId))?.state ?? "absent";
    } catch {
      return "unavailable";
    }
  }, stepConfig(stepName("journal", call.key, n)));
}

async function withRequest<TContext, R>(
  s: StepsState<TContext>,
  run: (rt: AgentRuntime<TContext>, actor: Actor, context: TContext) => Promise<R>,
): Promise<R> {
  const rt = await s.runtime();
  try {
    const actor = await s.actor();
    return await run(rt, actor, await s.context(actor));
  } finally {
    // The step's best-effort audit writes land before DBOS checkpoints it, so a crash right after the
    // checkpoint loses no evidence (docs/architecture/spec/distributed.md#distributed-7). A drain failure is an evidence problem, not an outcome.
    if (typeof rt?.drainAudit === "function") await rt.drainAudit().catch(() => undefined);
  }
}

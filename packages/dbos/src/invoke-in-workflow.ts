import { DBOS } from "@dbos-inc/dbos-sdk";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { invokeStep, resumeStep } from "./durable-steps.js";
import { assertStepKey, dbosInvocationId } from "./invocation-id.js";
import { claimRunKey } from "./run-keys.js";
import type { StepCall, StepCounter, StepsState } from "./state.js";
import { approvalEventKey } from "./topics.js";
import type { DBOSInvokeOptions } from "./types.js";
import { waitForDecision } from "./wait-for-decision.js";
import { waitForResolution } from "./wait-for-resolution.js";

/**
 * `steps.invoke` (docs/architecture/spec/distributed.md#distributed-9-2): the invoke step, then as long as the answer asks for it, the durable
 * approval wait and the resume step, or the wait for the application's resolution of an unknown outcome and a
 * re-run of the invoke step under a new name with the same invocation id (a replay, or the one re-run a
 * `not-applied` resolution authorized). Whatever else comes back is the workflow's typed result.
 */
export async function invokeInWorkflow<TContext, O>(
  s: StepsState<TContext>,
  capabilityId: string,
  input: unknown,
  o: DBOSInvokeOptions,
): Promise<RemoteExecutionResult<O>> {
  if (!DBOS.isInWorkflow()) {
    throw new TypeError("steps.invoke must be called from a DBOS workflow function, not from a step or outside a workflow.");
  }
  if (typeof capabilityId !== "string" || capabilityId.length === 0) throw new TypeError("steps.invoke: capabilityId must be a non-empty string.");
  assertInvokeOptions(o);
  const workflowId = DBOS.workflowID!;
  const call: StepCall = { workflowId, key: o.key, invocationId: dbosInvocationId(workflowId, o.key), capabilityId, input };
  claimRunKey(o.key);

  const counter: StepCounter = { invoke: 0, resume: 0, approval: 0, journal: 0 };
  const approvalDeadlines = new Map<string, number>();
  let unknownDeadline: number | undefined;
  let result = await invokeStep<TContext, O>(s, call, counter.invoke);
  for (;;) {
    if (result.status === "approval-required") {
      const approval = result.approval;
      let deadline = approvalDeadlines.get(approval.id);
      if (deadline === undefined) {
        deadline = o.approvalMaxWaitMs === undefined ? Infinity : (await DBOS.now()) + o.approvalMaxWaitMs;
        approvalDeadlines.set(approval.id, deadline);
      }
      // Published before waiting: the workflow's caller cannot see the step's result until it resumes.
      await DBOS.setEvent(approvalEventKey(call.key), result);
      await waitForDecision(s, call, counter, approval, { deadline, checkFirst: result.replayed });
      result = await resumeStep<TContext, O>(s, call, approval.id, counter.resume++);
      continue;
    }
    if (result.status === "outcome-unknown" && s.unknownWait) {
      unknownDeadline ??= (await DBOS.now()) + s.unknownMaxWaitMs;
      if (!(await waitForResolution(s, call, counter, unknownDeadline))) return result;
      result = await invokeStep<TContext, O>(s, call, ++counter.invoke);
      continue;
    }
    return result;
  }
}

function assertInvokeOptions(o: DBOSInvokeOptions): void {
  if (typeof o !== "object" || o === null) throw new TypeError('steps.invoke: options must be { key, approvalMaxWaitMs? }, e.g. { key: "refund" }.');
  assertStepKey(o.key);
  const maxWait = o.approvalMaxWaitMs;
  if (maxWait !== undefined && !(typeof maxWait === "number" && Number.isFinite(maxWait) && maxWait > 0)) {
    throw new TypeError("steps.invoke: approvalMaxWaitMs must be a finite number > 0.");
  }
}

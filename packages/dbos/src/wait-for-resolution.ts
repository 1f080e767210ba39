import { DBOS } from "@dbos-inc/dbos-sdk";
import { journalStateStep } from "./durable-steps.js";
import type { StepCall, StepCounter, StepsState } from "./state.js";
import { invocationTopic } from "./topics.js";

/**
 * Waits, durably, until the journal shows the invocation `settled` or `pending` (released by a `not-applied`
 * resolution, or suspended), which only the application's `service.resolve` can cause after an unknown outcome
 * (docs/architecture/spec/distributed.md#distributed-5-5, docs/architecture/spec/distributed.md#distributed-9-2). `true`: the invoke step may run again under a new name; `false`: `deadline` passed.
 */
export async function waitForResolution<TContext>(s: StepsState<TContext>, call: StepCall, counter: StepCounter, deadline: number): Promise<boolean> {
  for (;;) {
    const remaining = deadline - (await DBOS.now());
    if (remaining <= 0) return false;
    await DBOS.recv(invocationTopic(call.invocationId), { timeoutSeconds: Math.min(remaining, s.approvalPollMs) / 1000 });
    const state = await journalStateStep(s, call, ++counter.journal);
    if (state === "settled" || state === "pending") return true;
  }
}

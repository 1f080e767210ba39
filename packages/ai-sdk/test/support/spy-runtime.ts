// A runtime that records what the adapter asks of it, delegating to a real one unless told otherwise. It lets
// tests see the exact arguments of invoke and describe, or make invoke misbehave (docs/architecture/spec/adapters.md#adapters-2-7 (9), (11)).
import type { AgentRuntime, DescribeOptions, ExecutionOptions, ExecutionResult, ExposureSurface } from "@orpc-agent/core";

export type InvokeCall<TContext> = { id: string; input: unknown; options: ExecutionOptions<TContext> };
export type DescribeCall<TContext> = { surface: ExposureSurface; options: DescribeOptions<TContext> };

export function spyRuntime<TContext>(
  runtime: AgentRuntime<TContext>,
  overrides: { invoke?: (id: string, input: unknown, options: ExecutionOptions<TContext>) => Promise<ExecutionResult> } = {},
) {
  const invokes: InvokeCall<TContext>[] = [];
  const describes: DescribeCall<TContext>[] = [];
  const spy: AgentRuntime<TContext> = {
    governance: runtime.governance,
    registry: runtime.registry,
    approvals: runtime.approvals,
    grants: runtime.grants,
    invoke(id, input, options) {
      invokes.push({ id, input, options });
      return (overrides.invoke ?? runtime.invoke)(id, input, options) as never;
    },
    describe(surface, options) {
      describes.push({ surface, options });
      return runtime.describe(surface, options);
    },
    resume: (approvalId, options) => runtime.resume(approvalId, options),
    drainAudit: (options) => runtime.drainAudit(options),
  };
  return { runtime: spy, invokes, describes };
}

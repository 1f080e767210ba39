import type { Actor, AgentRuntime } from "@orpc-agent/core";
import type { InvocationService } from "@orpc-agent/core/server";

/** The validated options every step and wait of one `createDBOSCapabilitySteps` instance reads. */
export type StepsState<TContext> = {
  service: InvocationService;
  runtime: () => AgentRuntime<TContext> | Promise<AgentRuntime<TContext>>;
  actor: () => Actor | Promise<Actor>;
  context: (actor: Actor) => TContext | Promise<TContext>;
  approvalPollMs: number;
  unknownWait: boolean;
  unknownMaxWaitMs: number;
};

/** One `invoke` call inside a workflow run. */
export type StepCall = {
  workflowId: string;
  key: string;
  invocationId: string;
  capabilityId: string;
  input: unknown;
};

/** Numbers the steps of one kind within a call, so every recorded step name is unique and replays alike. */
export type StepCounter = { invoke: number; resume: number; approval: number; journal: number };

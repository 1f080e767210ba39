import type { AgentCapability } from "@orpc-agent/core";

/**
 * The two core functions a snapshot needs. They are passed in rather than imported so the loader
 * child can use the application's own core instance: converter state is module-level (docs/architecture/spec/cli.md#cli-3).
 */
export type CoreFunctions = {
  toJsonSchema(schema: NonNullable<AgentCapability["inputSchema"]>): unknown;
  defaultToolName(id: string): string;
};

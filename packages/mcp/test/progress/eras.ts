// Both eras' real SDK clients, reduced to what the progress tests do: list, and call with or without `onprogress`.
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";

export type ProgressSeen = { progress: number; total?: number; message?: string };
export type ToolResult = { structuredContent?: unknown; isError?: boolean };

export type ProgressClient = {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  /** Calls the tool; with `seen`, asks for progress (the SDK sends a token) and records each update in order. */
  call(name: string, args: Record<string, unknown>, seen?: ProgressSeen[]): Promise<ToolResult>;
};

const record = (seen: ProgressSeen[]) => (update: ProgressSeen) => void seen.push({ ...update });

export function modernProgressClient(client: ModernClient): ProgressClient {
  return {
    listTools: () => client.listTools(),
    call: async (name, args, seen) => (await client.callTool({ name, arguments: args }, seen ? { onprogress: record(seen) } : undefined)) as ToolResult,
  };
}

export function legacyProgressClient(client: LegacyClient): ProgressClient {
  return {
    listTools: () => client.listTools(),
    call: async (name, args, seen) => (await client.callTool({ name, arguments: args }, undefined, seen ? { onprogress: record(seen) } : undefined)) as ToolResult,
  };
}

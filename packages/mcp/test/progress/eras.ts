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

/**
 * A `seen` list that calls `gate_open` on the same client once an update satisfies `last`: the capability finishes
 * only after the client has the update the test expects last.
 */
export function openGateOn(client: ProgressClient, last: (update: ProgressSeen) => boolean): ProgressSeen[] {
  const seen: ProgressSeen[] = [];
  const push = seen.push.bind(seen);
  // Not enumerable: the list still compares equal to a plain array of the updates.
  Object.defineProperty(seen, "push", {
    value: (...updates: ProgressSeen[]) => {
      const length = push(...updates);
      // Its answer may come after the test closed the client; a gate that never opens times the test out instead.
      if (updates.some(last)) client.call("gate_open", {}).catch(() => undefined);
      return length;
    },
  });
  return seen;
}

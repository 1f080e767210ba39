import type { McpCallToolResult as CallToolResult } from "./wire-types.js";
import type { AgentRuntime } from "@orpc-agent/core";
import { toCallToolResult } from "./call-tool-result.js";
import { CONCEALED_ENVELOPE, NOT_FOUND_ENVELOPE, toEnvelope, type ApprovalGuidance, type MCPEnvelope } from "./envelope.js";
import type { MCPIdentity } from "./governance-options.js";
import { conversationOf } from "./identity-checks.js";
import { readApprovalId } from "./resume-tool.js";
import type { CallProgress } from "./progress.js";
import type { ToolCatalog } from "./tool-catalog.js";

/** One `tools/call`: `progress` only when the request carried a progress token. */
export type ToolCall = { name: string; arguments: Record<string, unknown> | undefined; signal: AbortSignal; progress?: CallProgress };

/**
 * `tools/call` after the identity check (docs/architecture/spec/adapters.md#adapters-3-5 steps 2–5): the resume tool, else the resolved name,
 * invoked with the arguments as sent (absent ⇒ `{}`) and the request's own abort signal. Governed outcomes are
 * results; an unexpected rejection is the concealed result, never a JSON-RPC error.
 */
export async function callTool<TContext>(
  runtime: AgentRuntime<TContext>,
  catalog: ToolCatalog,
  guidance: ApprovalGuidance,
  identity: MCPIdentity<TContext>,
  call: ToolCall,
): Promise<CallToolResult> {
  let envelope: MCPEnvelope;
  try {
    envelope = await governedCall(runtime, catalog, guidance, identity, call);
  } catch {
    envelope = CONCEALED_ENVELOPE;
  }
  return toCallToolResult(envelope);
}

async function governedCall<TContext>(
  runtime: AgentRuntime<TContext>,
  catalog: ToolCatalog,
  guidance: ApprovalGuidance,
  identity: MCPIdentity<TContext>,
  call: ToolCall,
): Promise<MCPEnvelope> {
  const { actor, context } = identity;
  const args = call.arguments ?? {};
  const target = catalog.resolve(call.name);
  switch (target.kind) {
    case "concealed":
      return NOT_FOUND_ENVELOPE;
    case "invoke":
      return toEnvelope(await runtime.invoke(target.id, args, { actor, context, ...conversationOf(identity), surface: "mcp", signal: call.signal, ...call.progress }), guidance);
    case "resume": {
      // docs/architecture/spec/adapters.md#adapters-3-7: resume as the caller, bound to the caller and this surface; never a decision.
      const read = readApprovalId(args);
      if ("issues" in read) return inputInvalid(read.issues);
      const result = await runtime.resume(read.approvalId, { context, expectedActor: actor, expectedSurface: "mcp", signal: call.signal, ...call.progress });
      return toEnvelope(result, guidance);
    }
  }
}

function inputInvalid(issues: { path: string[]; message: string }[]): MCPEnvelope {
  return { status: "error", error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: { issues } } };
}

// The one SDK-facing module of MCP Tasks (SEP-2663, issue 47): how a 2026-07-28 `tools/call` answers with a task,
// and the `tasks/get`, `tasks/update` and `tasks/cancel` handlers. Everything else in this folder is SDK-free.
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, ProtocolError, ProtocolErrorCode, Server, type ServerContext } from "@modelcontextprotocol/server";
import type { ExecutionResult } from "@orpc-agent/core";
import { callTool, type ToolCall } from "../catalog/call-tool.js";
import { toCallToolResult } from "../catalog/call-tool-result.js";
import { CONCEALED_ENVELOPE, toEnvelope } from "../catalog/envelope.js";
import type { MCPIdentity } from "../catalog/governance-options.js";
import { conversationOf } from "../catalog/identity-checks.js";
import type { PreparedMCPServer } from "../catalog/prepare.js";
import { principalKey } from "../catalog/principal-key.js";
import type { McpCallToolResult } from "../catalog/wire-types.js";
import { declaresUrl } from "../compat/legacy-capabilities.js";
import { newTaskId } from "./task-id.js";
import { endIfLapsed, leaseUntil } from "./run-lease.js";
import { answerTask, cancelTask, invokeInBackground, pollTask } from "./task-runner.js";
import { runningKey, type TaskRuntime } from "./task-runtime.js";
import type { MCPTaskRecord } from "./task-store.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The key of the approval's URL elicitation in a task's `inputRequests`: asked once per task, never reused. */
const TASK_APPROVAL_INPUT_KEY = "approval";

type Capabilities = { extensions?: Record<string, unknown>; elicitation?: { url?: unknown } } | undefined;

/** The client capabilities a 2026-07-28 request declares in its `_meta`. */
export function requestCapabilities(ctx: ServerContext): Capabilities {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as Capabilities;
}

/** Whether this request declared the tasks extension: only then may its `tools/call` answer with a task. */
export function declaresTasks(capabilities: Capabilities): boolean {
  const extension = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof extension === "object" && extension !== null;
}

/** A `CreateTaskResult` on its way out of the `tools/call` handler (thrown, see {@link TaskAnsweringServer}). */
class TaskAnswer {
  constructor(readonly result: Record<string, unknown>) {}
}

/**
 * The SDK's `Server`, letting a `tools/call` answer with a task. SDK 2.4 validates every `tools/call` result as a
 * `CallToolResult` and knows no SEP-2663 results yet; the handler throws the task past that check and this
 * subclass hook (`_wrapHandler`, the SDK's documented extension point) returns it. The SDK still stamps and sends
 * it (`resultType: "task"` passes, as `tools/call` results may carry other result types on 2026-07-28).
 */
export class TaskAnsweringServer extends Server {
  protected override _wrapHandler(method: string, handler: Parameters<Server["_wrapHandler"]>[1]): ReturnType<Server["_wrapHandler"]> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") return wrapped;
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswer) return error.result as never;
        throw error;
      }
    };
  }
}

/** The server capability that advertises the extension (`server/discover`). */
export const TASKS_SERVER_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } } as const;

/**
 * `tools/call` for a client that declared the extension. The call runs as always; a call that suspends for
 * approval becomes a task, durably stored before it is answered (SEP-2663): `input_required` with the approval's URL
 * elicitation when the app has `approvals.url` and the client declared URL elicitation, else `working`. Any other
 * outcome is the usual result, byte for byte.
 */
export async function callToolAsTask<TContext>(
  prepared: PreparedMCPServer<TContext>,
  tasks: TaskRuntime,
  identity: MCPIdentity<TContext>,
  call: ToolCall,
  capabilities: Capabilities,
): Promise<McpCallToolResult> {
  const target = prepared.catalog.resolve(call.name);
  if (target.kind !== "invoke") return callTool(prepared.runtime, prepared.catalog, prepared.guidance, identity, call);
  const principal = principalKey(identity.actor);
  if (tasks.always.has(target.id)) {
    // Answered with a task at once; the call runs in the background as its caller.
    const now = Date.now();
    const record: MCPTaskRecord = {
      taskId: newTaskId(),
      principal,
      capabilityId: target.id,
      phase: "running",
      status: "working",
      statusMessage: "Running.",
      createdAt: now,
      lastUpdatedAt: now,
      expiresAt: now + ALWAYS_TASK_TTL_MS + tasks.retentionMs,
      runLeaseExpiresAt: leaseUntil(tasks, now),
      version: 1,
    };
    await tasks.store.create(record);
    invokeInBackground(prepared, tasks, identity, record, call.arguments ?? {}, (result) => {
      const envelope = toEnvelope(result, prepared.guidance);
      return envelope.status === "approval-required" ? awaitingFields(result, envelope, capabilities, tasks, record.createdAt) : {};
    });
    throw new TaskAnswer({ resultType: "task", ...wireTask(record, tasks) });
  }
  let result: ExecutionResult;
  try {
    result = await prepared.runtime.invoke(target.id, call.arguments ?? {}, {
      actor: identity.actor,
      context: identity.context,
      ...conversationOf(identity),
      surface: "mcp",
      signal: call.signal,
      ...call.progress,
    });
  } catch {
    return toCallToolResult(CONCEALED_ENVELOPE);
  }
  const envelope = toEnvelope(result, prepared.guidance);
  if (result.status !== "approval-required" || envelope.status !== "approval-required") return toCallToolResult(envelope);
  const now = Date.now();
  const record: MCPTaskRecord = {
    taskId: newTaskId(),
    principal,
    capabilityId: target.id,
    phase: "awaiting",
    createdAt: now,
    lastUpdatedAt: now,
    version: 1,
    ...awaitingFields(result, envelope, capabilities, tasks, now),
  } as MCPTaskRecord;
  // Stored before it is answered: a `tasks/get` for the id resolves as soon as the client has it (SEP-2663).
  await tasks.store.create(record);
  throw new TaskAnswer({ resultType: "task", ...wireTask(record, tasks) });
}

/** How long a `task: "always"` task may run before it is dropped (its approval, if it stops for one, sets its own). */
const ALWAYS_TASK_TTL_MS = 24 * 3_600_000;

/**
 * A task suspended for approval: `input_required` with the approval's URL elicitation when the app has
 * `approvals.url` and the client declared URL elicitation, else `working`; readable until the approval's expiry plus
 * the retention.
 */
function awaitingFields(
  result: Extract<ExecutionResult, { status: "approval-required" }>,
  envelope: Extract<ReturnType<typeof toEnvelope>, { status: "approval-required" }>,
  capabilities: Capabilities,
  tasks: TaskRuntime,
  createdAt: number,
): Partial<MCPTaskRecord> {
  const approvalExpiry = new Date(result.approval.expiresAt).getTime();
  const url = envelope.url !== undefined && declaresUrl(capabilities) ? envelope.url : undefined;
  const message = `${envelope.message} An authorized person decides it in the application; this task continues on its own once it is approved.`;
  return {
    approvalId: result.approval.id,
    phase: "awaiting",
    status: url === undefined ? "working" : "input_required",
    statusMessage: message,
    ...(url !== undefined && { inputRequests: { [TASK_APPROVAL_INPUT_KEY]: inputRequired.elicitUrl({ message, url }) } }),
    expiresAt: Math.max(Number.isFinite(approvalExpiry) ? approvalExpiry : createdAt, createdAt) + tasks.retentionMs,
  };
}

/** Registers the three task methods. Each answers only the principal that created the task (SI-8). */
export function registerTaskHandlers<TContext>(
  server: Server,
  prepared: PreparedMCPServer<TContext>,
  tasks: TaskRuntime,
  identityOf: (ctx: ServerContext) => Promise<MCPIdentity<TContext>>,
): void {
  const found = async (taskId: string, ctx: ServerContext) => {
    if (!declaresTasks(requestCapabilities(ctx))) {
      throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
        requiredCapabilities: TASKS_SERVER_CAPABILITY,
      });
    }
    const identity = await identityOf(ctx);
    const stored = await tasks.store.get(principalKey(identity.actor), taskId, Date.now());
    // Unknown, expired and another principal's task: one answer (SI-8).
    if (stored === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
    // Every task method reads through here, so each ends a task whose running instance died.
    const record = await endIfLapsed(tasks, stored, tasks.running.has(runningKey(stored)));
    return { identity, record };
  };
  server.setRequestHandler("tasks/get", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const { identity, record } = await found(params.taskId, ctx);
    return wireTask(await pollTask(prepared, tasks, identity, record), tasks);
  });
  server.setRequestHandler("tasks/update", { params: TASK_UPDATE_PARAMS }, async (params, ctx) => {
    const { record } = await found(params.taskId, ctx);
    // The SDK lifts a request's `inputResponses` (MRTR vocabulary) out of `params` into the context.
    const inputResponses = ctx.mcpReq.inputResponses ?? params.inputResponses;
    if (typeof inputResponses !== "object" || inputResponses === null || Array.isArray(inputResponses)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid params for tasks/update: expected inputResponses, an object.");
    }
    await answerTask(tasks, record, inputResponses as Record<string, unknown>);
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: TASK_ID_PARAMS }, async (params, ctx) => {
    const { record } = await found(params.taskId, ctx);
    await cancelTask(tasks, record);
    return {};
  });
}

/** A task on the wire (SEP-2663 `DetailedTask`): the status's own payload inlined. */
export function wireTask(record: MCPTaskRecord, tasks: TaskRuntime): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: Math.max(0, record.expiresAt - record.createdAt),
    pollIntervalMs: tasks.pollIntervalMs,
    ...(record.status === "input_required" && { inputRequests: record.inputRequests ?? {} }),
    ...(record.status === "completed" && { result: record.result ?? {} }),
    ...(record.status === "failed" && record.error !== undefined && { error: record.error }),
  };
}

// Hand-written Standard Schema validators: the package does not depend on a schema library.
type Issue = { message: string; path?: string[] };
function standardSchema<T>(validate: (value: unknown) => T | Issue[]) {
  return {
    "~standard": {
      version: 1 as const,
      vendor: "orpc-agent",
      validate: (value: unknown) => {
        const out = validate(value);
        return Array.isArray(out) ? { issues: out } : { value: out };
      },
      types: undefined as unknown as { input: unknown; output: T },
    },
  };
}
// Any string is looked up, so every id that is not the caller's own answers "not found", whatever its shape (SI-8).
function readTaskId(value: unknown): string | Issue[] {
  const taskId = (value as { taskId?: unknown } | null)?.taskId;
  return typeof taskId === "string" ? taskId : [{ message: "Expected taskId, a string.", path: ["taskId"] }];
}
const TASK_ID_PARAMS = standardSchema((value) => {
  const taskId = readTaskId(value);
  return typeof taskId === "string" ? { taskId } : taskId;
});
const TASK_UPDATE_PARAMS = standardSchema((value) => {
  const taskId = readTaskId(value);
  if (typeof taskId !== "string") return taskId;
  return { taskId, inputResponses: (value as { inputResponses?: unknown }).inputResponses };
});

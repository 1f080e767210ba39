// MCP Tasks over loopback HTTP (issue 47): the approvals app served with `tasks`, the MCP project's own tasks client
// (`@modelcontextprotocol/ext-tasks`) on the v2 SDK Client, and raw 2026-07-28 task requests for the attacks.
import { z } from "zod";
import { agentMeta, createCapabilityRegistry } from "@orpc-agent/core";
import { ap } from "../support/orpc.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type ApplicationInputRequest, type RawClientDispatch, type TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";
import type { MCPHandlerOptions } from "../../src/http/handler-options.js";
import { elicitationOptions, refundAndOrderCapabilities, runtimeOf, type ApprovalsApp } from "../approvals/approvals-app.js";
import { createMCPHandler } from "../../src/http/create-handler.js";
import { listenModern } from "../support/handler.js";
import { closeAfterTest } from "../support/cleanup.js";

export type TasksApp = ApprovalsApp & {
  /** What `reports.build` did: `started` when its handler began, `finished`/`aborted` when it ended. */
  builds: string[];
  /** Lets a running `reports.build` finish. */
  release: () => void;
  /** Resolves once a `reports.build` handler has started (and reported its progress). */
  started: Promise<void>;
};

/**
 * The approvals app's `payments.refund` and `orders.get`, plus `reports.build`: gated too, it reports progress and
 * then waits for `release()` or its abort signal, so a test can poll it running and cancel it there.
 */
export function createTasksApp(): TasksApp {
  const executions: { orderId: string; amount: number }[] = [];
  const builds: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const gated = (description: string) =>
    agentMeta({ description, expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } });
  const registry = createCapabilityRegistry({
    ...refundAndOrderCapabilities(executions),
    exports: {
      // Always a task for a client that declares the extension: it runs in the background, reporting progress.
      slow: ap
        .input(z.object({ rows: z.number() }))
        .meta(
          agentMeta({
            description: "Export rows slowly.",
            expose: { mcp: true },
            sideEffect: "read",
            risk: "low",
            adapters: { mcp: { task: "always" } },
          } as never),
        )
        .handler(async ({ input, context }) => {
          context.agent!.reportProgress({ progress: 1, total: input.rows, message: "row 1" });
          await gate;
          return { rows: input.rows };
        }),
      // Always a task, and gated: the background call stops for approval.
      audited: ap
        .input(z.object({ rows: z.number() }))
        .meta(
          agentMeta({
            description: "Export rows, audited.",
            expose: { mcp: true },
            sideEffect: "read",
            risk: "high",
            approval: { required: true },
            adapters: { mcp: { task: "always" } },
          } as never),
        )
        .handler(({ input }) => ({ rows: input.rows })),
    },
    reports: {
      build: ap
        .input(z.object({ pages: z.number() }))
        .meta(gated("Build a report."))
        .handler(async ({ input, context, signal }) => {
          builds.push("started");
          context.agent!.reportProgress({ progress: 1, total: input.pages, message: "page 1" });
          markStarted();
          const aborted = new Promise<"aborted">((resolve) => signal?.addEventListener("abort", () => resolve("aborted"), { once: true }));
          const how = await Promise.race([gate.then(() => "finished" as const), aborted]);
          builds.push(how);
          if (how === "aborted") throw signal!.reason;
          return { pages: input.pages };
        }),
    },
  });
  return { ...runtimeOf(registry), executions, builds, release, started };
}

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const PROTOCOL = "2026-07-28";
const CLIENT_INFO = { name: "tasks-test", version: "1.0.0" };

/** The approvals app, served with tasks polled every few milliseconds (tests do not wait the default 2 s). */
export async function serveTasks<A extends ApprovalsApp>(app: A = createTasksApp() as unknown as A, overrides: Partial<MCPHandlerOptions> | ((url: URL) => Partial<MCPHandlerOptions>) = {}) {
  const served = await listenModern((url) =>
    createMCPHandler(app.runtime, elicitationOptions(url, { tasks: { pollIntervalMs: 5 }, ...(typeof overrides === "function" ? overrides(url) : overrides) })),
  );
  return { app, ...served };
}

/** Headers of a 2026-07-28 request; task methods route by task id (`Mcp-Name`, SEP-2663). */
function headersOf(token: string | undefined, method: string, name: string | undefined, extra: Record<string, string> = {}): Headers {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": PROTOCOL, "mcp-method": method });
  if (name !== undefined) headers.set("mcp-name", name);
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  for (const [key, value] of Object.entries(extra)) headers.set(key, value);
  return headers;
}

/** The JSON-RPC message of an answer, JSON or the last `data:` line of an SSE stream. */
async function messageOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return JSON.parse(text) as Record<string, unknown>;
  const lines = text.split("\n").filter((line) => line.startsWith("data: "));
  const messages = lines.map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>).filter((message) => "result" in message || "error" in message);
  return messages[messages.length - 1]!;
}

/**
 * The host-side request path the ext-tasks client needs for 2026-07-28 task wire shapes (its README: the SDK Client's
 * codecs do not carry them): the framed request as JSON over HTTP, with the bearer token.
 */
export function rawDispatchFor(url: URL, token: string): RawClientDispatch {
  let id = 1_000;
  return async (request, options) => {
    const body = { ...(request as Record<string, unknown>), jsonrpc: "2.0", id: id++ };
    const params = (body as { params?: { name?: string; taskId?: string } }).params;
    const method = (request as { method: string }).method;
    const name = method === "tools/call" ? params?.name : params?.taskId;
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: headersOf(token, method, name, options?.context?.headers as Record<string, string> | undefined), signal: options?.signal ?? null });
    const message = await messageOf(response);
    return "error" in message ? { kind: "error", error: message.error as never } : { kind: "result", result: message.result as never };
  };
}

export type TasksSession = { client: ModernClient; session: TaskEnabledSession; inputs: ApplicationInputRequest[] };

/**
 * The v2 SDK Client pinned to 2026-07-28 (declaring URL elicitation), wrapped in the ext-tasks session. `onUrl` plays
 * the user shown the approval link; its answer goes back with `tasks/update`.
 */
export async function connectTasks(url: URL, token: string, onUrl: (params: Record<string, unknown>) => Promise<"accept" | "decline" | "cancel"> = async () => "accept"): Promise<TasksSession> {
  const capabilities = { elicitation: { url: {} } };
  const client = new ModernClient(CLIENT_INFO, { versionNegotiation: { mode: { pin: PROTOCOL } }, capabilities });
  await client.connect(
    new ModernHttpTransport(url, {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      },
    }),
  );
  closeAfterTest(() => client.close());
  const inputs: ApplicationInputRequest[] = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: `${url.href}#${token}`,
    rawDispatch: rawDispatchFor(url, token),
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: capabilities },
    onInputRequest: async (request) => {
      inputs.push(request);
      return { action: await onUrl(request.params as Record<string, unknown>) } as never;
    },
  });
  closeAfterTest(() => session.close());
  return { client, session, inputs };
}

export type RawAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** One raw 2026-07-28 request; `tasks: false` leaves the extension undeclared. */
export async function raw(url: URL, token: string | undefined, method: string, params: Record<string, unknown>, options: { tasks?: boolean; url?: boolean } = {}): Promise<RawAnswer> {
  const capabilities = {
    ...(options.tasks !== false && { extensions: { [TASKS_EXTENSION]: {} } }),
    ...(options.url !== false && { elicitation: { url: {} } }),
  };
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const body = { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta } };
  const name = method === "tools/call" ? (params.name as string) : (params.taskId as string | undefined);
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: headersOf(token, method, name) });
  const message = await messageOf(response);
  return { ...("result" in message && { result: message.result as Record<string, unknown> }), ...("error" in message && { error: message.error as RawAnswer["error"] & object }) };
}

export const REFUND_ARGS = { orderId: "o1", amount: 5 };

/** A raw refund call that answers with a task; returns the task and its approval id. */
export async function startTask(url: URL, token = "tok-dana", options: { url?: boolean } = {}): Promise<{ taskId: string; approvalId: string; task: Record<string, unknown> }> {
  const answer = await raw(url, token, "tools/call", { name: "payments_refund", arguments: REFUND_ARGS }, options);
  const task = answer.result;
  if (task?.resultType !== "task") throw new Error(`expected a task, got ${JSON.stringify(answer)}`);
  const statusMessage = String(task.statusMessage);
  const approvalId = /apr_[0-9a-f-]+/.exec(JSON.stringify(task))?.[0] ?? statusMessage;
  return { taskId: task.taskId as string, approvalId, task };
}

/** Polls `tasks/get` until the task leaves the given statuses. */
export async function pollUntil(url: URL, token: string, taskId: string, leave: string[] = ["working", "input_required"]): Promise<RawAnswer> {
  for (;;) {
    const answer = await raw(url, token, "tasks/get", { taskId });
    const status = answer.result?.status as string | undefined;
    if (answer.error !== undefined || status === undefined || !leave.includes(status)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

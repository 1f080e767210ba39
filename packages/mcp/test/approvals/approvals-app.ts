// An app whose one gated capability counts its executions, served with URL elicitation of approvals, and clients
// of both eras that declare URL elicitation. The approver decides through the app (runtime.approvals.decide), never
// through MCP.
import { z } from "zod";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, type Actor, type AgentAuditEvent, type AgentMetaDeclaration, type AgentRuntime } from "@orpc-agent/core";
import { createMCPHandler } from "../../src/http/create-handler.js";
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import type { MCPHandlerOptions } from "../../src/http/handler-options.js";
import { ap } from "../support/orpc.js";
import { closeAfterTest } from "../support/cleanup.js";
import { listenModern, nowInSeconds } from "../support/handler.js";

export const APPROVER: Actor = Object.freeze({ id: "u_manager", kind: "user" });
export const STATE_KEYS = [{ id: "k1", secret: "url-elicitation-test-secret-0123456789" }];
const USERS: Record<string, string> = { "tok-dana": "u_dana", "tok-priya": "u_priya" };

export type ApprovalsApp = { runtime: AgentRuntime; executions: { orderId: string; amount: number }[]; events: AgentAuditEvent[] };

/** `payments.refund` needs approval and records every execution; `orders.get` does not. */
export function createApprovalsApp(options: { expiresInMs?: number } = {}): ApprovalsApp {
  const executions: { orderId: string; amount: number }[] = [];
  const refundMeta = agentMeta({
    description: "Refund a payment.",
    expose: { mcp: true },
    sideEffect: "write",
    risk: "high",
    approval: { required: true, ...(options.expiresInMs !== undefined && { expiresInMs: options.expiresInMs }) },
    adapters: { mcp: { annotations: { title: "Refund a payment" } } },
  });
  return { ...runtimeOf(createCapabilityRegistry(refundAndOrderCapabilities(executions, refundMeta))), executions };
}

/** The gated `payments.refund` (by default: approval required, nothing else declared), recording each execution. */
export function recordedRefund(
  executions: { push(input: { orderId: string; amount: number }): unknown },
  meta: AgentMetaDeclaration = agentMeta({ description: "Refund a payment.", expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } }),
) {
  return ap
    .input(z.object({ orderId: z.string(), amount: z.number() }))
    .meta(meta)
    .handler(({ input }) => {
      executions.push(input);
      return { refunded: input.amount };
    });
}

/** `payments.refund` with `refundMeta`, recording every execution in `executions`, and the ungated `orders.get`. */
export function refundAndOrderCapabilities(executions: { orderId: string; amount: number }[], refundMeta?: AgentMetaDeclaration) {
  return {
    payments: { refund: recordedRefund(executions, refundMeta) },
    orders: {
      get: ap
        .input(z.object({ id: z.string() }))
        .meta(agentMeta({ description: "Read an order.", expose: { mcp: true }, sideEffect: "read", risk: "low" }))
        .handler(({ input }) => ({ id: input.id })),
    },
  };
}

/** The runtime a test app serves: `registry` governed, approvals kept in memory, every audit event in `events`. */
export function runtimeOf(registry: Parameters<typeof defineGovernance>[0]["registry"]): { runtime: AgentRuntime; events: AgentAuditEvent[] } {
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
  });
  return { runtime, events };
}

export const approvalUrl = (id: string) => `https://approvals.example.test/requests/${id}`;
export const approvalIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

export function elicitationOptions(url: URL, overrides: Partial<MCPHandlerOptions> = {}): MCPHandlerOptions {
  return {
    resource: url,
    verifyToken: (token) => (token in USERS ? { token, clientId: "agent-1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
    createContext: ({ authInfo }) => (authInfo && USERS[authInfo.token] ? { actor: { id: USERS[authInfo.token]!, kind: "user" }, context: {} } : null),
    approvals: { url: (record) => approvalUrl(record.id) },
    urlElicitation: { keys: STATE_KEYS },
    ...overrides,
  } as MCPHandlerOptions; // an override may switch authentication mode; the runtime check refuses a mix
}

export async function serveWithElicitation(app: ApprovalsApp, overrides: Partial<MCPHandlerOptions> = {}) {
  return listenModern((url) => createMCPHandler(app.runtime, elicitationOptions(url, overrides)));
}

function withBearer(token: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

export type UrlElicitation = { mode?: string; url: string; message: string };

/**
 * The v2 Client on 2026-07-28, declaring URL elicitation. `onUrl` plays the user who opens the link (and, in the
 * tests, the approver deciding in the app); its answer goes back as the elicitation result. `manual` turns off the
 * SDK's automatic retry, so a test can hold and replay a requestState.
 */
export async function connectModernWithUrl(
  url: URL,
  token: string,
  onUrl: (elicitation: UrlElicitation) => Promise<"accept" | "decline" | "cancel"> = async () => "accept",
  manual = false,
): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "modern-url", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { elicitation: { url: {} } },
      ...(manual && { inputRequired: { autoFulfill: false } }),
    },
  );
  client.setRequestHandler("elicitation/create", async (request) => ({ action: await onUrl(request.params as UrlElicitation) }));
  await client.connect(new ModernHttpTransport(url, { fetch: withBearer(token) }));
  closeAfterTest(() => client.close());
  return client;
}

/** The v1 SDK Client on 2025-11-25, declaring URL elicitation. */
export async function connectLegacyWithUrl(url: URL, token: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-url", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  await client.connect(new LegacyHttpTransport(url, { fetch: withBearer(token) }));
  closeAfterTest(() => client.close());
  return client;
}

export const approve = (app: ApprovalsApp, id: string) => app.runtime.approvals.decide(id, { status: "approved", approver: APPROVER });
export const reject = (app: ApprovalsApp, id: string) => app.runtime.approvals.decide(id, { status: "rejected", approver: APPROVER, comment: "no" });

/**
 * `serveMCPStdio` for u_dana with URL elicitation and `decisions`, over an in-memory pair, and a v1 SDK Client
 * (2025-11-25) declaring URL elicitation on that one connection. `report(id)` plays the app telling the adapter a
 * decision happened; `notified` collects the elicitation ids of the completion notifications the client heard.
 */
export async function connectLegacyStdioWithUrl(app: ApprovalsApp) {
  const listeners = new Set<(approvalId: string) => void>();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveMCPStdio(app.runtime, {
    createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }),
    approvals: { url: (record) => approvalUrl(record.id) },
    urlElicitation: {
      keys: STATE_KEYS,
      decisions: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
    transport: serverSide as never,
  });
  closeAfterTest(() => handle.close());
  const client = new LegacyClient({ name: "stdio-complete", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const notified: string[] = [];
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    notified.push(notification.params.elicitationId);
    for (const wake of waiters.splice(0)) wake();
  });
  await client.connect(clientSide);
  closeAfterTest(() => client.close());
  return {
    client,
    listeners,
    notified,
    report: (approvalId: string) => {
      for (const listener of [...listeners]) listener(approvalId);
    },
    /** Resolves at the next completion notification. */
    nextNotification: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

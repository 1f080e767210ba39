import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type AuthInfo,
  type ListToolsResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { MCPIdentity } from "../catalog/governance-options.js";
import { listTools } from "../catalog/list-tools.js";
import { principalKey } from "../catalog/principal-key.js";
import { callProgress, progressTokenOf } from "../catalog/progress.js";
import { PACKAGE_VERSION } from "../catalog/version.js";
import { ToolListingError } from "../catalog/wire-types.js";
import { principalOfRequest, resolveIdentity } from "./identity.js";
import { declaresUrl, legacyUrlCapable, rememberLegacyCapabilities } from "../compat/legacy-capabilities.js";
import type { LegacyCancellation } from "../compat/legacy-cancel.js";
import { APPROVAL_INPUT_KEY, callToolNatively, type ElicitationRequest } from "../approvals/native-approvals.js";
import type { MCPRequestAuth } from "./options.js";
import type { PreparedGovernedServer } from "./prepare.js";
import { modernToolDecoration } from "./tool-decoration.js";
import { withRequestTrace } from "./trace-context.js";
import { callToolAsTask, declaresTasks, registerTaskHandlers, requestCapabilities, TaskAnsweringServer, TASKS_SERVER_CAPABILITY } from "../tasks/tasks-extension.js";

/**
 * What the server serves: one HTTP exchange or one stdio connection. Over HTTP: the request's verified auth, the
 * endpoint's record of 2025-era calls in flight (a later POST may cancel one), and, with `callsAs`, the name every
 * `tools/call` runs as whatever the body names: how the front serves a call its scope check refused without changing
 * the body the SDK checks the `Mcp-Name` header against. Over stdio: how the connection binds a cancellation to the
 * principal that made the call.
 */
export type GovernedChannel =
  | { kind: "http"; authInfo: AuthInfo | undefined; legacyCalls: LegacyCancellation; callsAs?: string }
  | { kind: "stdio"; bindCancellation: CancellationBinding };

/**
 * Binds a connection's cancellations to principals: `judge` says who is asking now; returns how the `tools/call`
 * handler names its call's principal (`undefined` when its identity was refused).
 */
export type CancellationBinding = (
  server: Server,
  judge: () => Promise<string | undefined>,
) => (ctx: ServerContext, principal: string | undefined) => void;

/**
 * One low-level v2 `Server` for one exchange (HTTP) or connection (stdio). Low-level on purpose: the list is per
 * actor and arguments reach the runtime unvalidated (docs/architecture/spec/adapters.md#adapters-3-1). Identity is resolved on every request.
 */
export function createGovernedServer<TContext>(prepared: PreparedGovernedServer<TContext>, era: MCPRequestAuth["era"], channel: GovernedChannel): Server {
  const { runtime, options, catalog } = prepared;
  const fixedAuth = channel.kind === "http" ? channel.authInfo : undefined;
  const callsAs = channel.kind === "http" ? channel.callsAs : undefined;
  const decoration = modernToolDecoration(prepared as never);
  const tasks = era === "modern" ? prepared.tasks : undefined;
  const server = new (tasks !== undefined ? TaskAnsweringServer : Server)(options.serverInfo ?? { name: "orpc-agent", version: PACKAGE_VERSION }, {
    // The tasks extension is 2026-07-28 only: a 2025-era client never sees it.
    capabilities: { tools: { listChanged: false }, ...(tasks !== undefined && TASKS_SERVER_CAPABILITY) },
    // The list differs per actor: never cacheable by a shared cache, and stale the moment governance changes.
    cacheHints: { "tools/list": { ttlMs: 0, cacheScope: "private" } },
  });
  const authOf = (authInfo: AuthInfo | undefined): MCPRequestAuth => {
    const verified = authInfo ?? fixedAuth;
    return verified === undefined ? { era } : { era, authInfo: verified };
  };

  const watchCompletion = era === "legacy" ? completionWatcher(server, prepared) : undefined;
  // A cancellation names a call by request id: it reaches the call only from the principal that made it (SI-3).
  const claimCall: (ctx: ServerContext, principal: string | undefined) => void =
    channel.kind === "http"
      ? (ctx, principal) => channel.legacyCalls.claim(ctx.http?.req, principal)
      : channel.bindCancellation(server, () => principalOfRequest(options, { era }));

  server.setRequestHandler("tools/list", async (_request, ctx) => {
    const identity = await resolveIdentity(options, authOf(ctx.http?.authInfo));
    try {
      return (await listTools(runtime, catalog, options, identity, decoration)) as ListToolsResult;
    } catch (error) {
      if (error instanceof ToolListingError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      throw error;
    }
  });
  server.setRequestHandler("tools/call", async (request, ctx) => {
    let identity: MCPIdentity<TContext>;
    try {
      identity = await resolveIdentity(options, authOf(ctx.http?.authInfo));
    } catch (refusal) {
      claimCall(ctx, undefined);
      throw refusal;
    }
    const principal = principalKey(identity.actor);
    claimCall(ctx, principal);
    const { name, arguments: args } = request.params;
    const progress = requestProgress(ctx);
    const call = { name: callsAs ?? name, arguments: args, signal: ctx.mcpReq.signal, ...(progress !== undefined && { progress: progress.options }) };
    const elicitation = { ...(await elicitationRequest(server, prepared, era, ctx, principal)), ...(watchCompletion !== undefined && { watchCompletion }) };
    const capabilities = tasks !== undefined ? requestCapabilities(ctx) : undefined;
    const asTask = tasks !== undefined && callsAs === undefined && declaresTasks(capabilities) && elicitation.requestState === undefined;
    try {
      return await withRequestTrace(options.traceContext, ctx.mcpReq._meta, () =>
        asTask ? (callToolAsTask(prepared, tasks, identity, call, capabilities) as Promise<never>) : callToolNatively(prepared, identity, call, elicitation),
      );
    } finally {
      await progress?.close();
    }
  });
  if (tasks !== undefined) registerTaskHandlers(server, prepared, tasks, (ctx) => resolveIdentity(options, authOf(ctx.http?.authInfo)));
  // stdio knows its client's capabilities for the whole connection; a stateless HTTP exchange has to remember them.
  if (era === "legacy" && prepared.elicitation !== undefined && channel.kind === "http") {
    rememberLegacyCapabilities(server, prepared.elicitation, (authInfo) => principalOfRequest(options, authOf(authInfo)));
  }
  return server;
}

/**
 * Progress for a `tools/call` whose request carries a `progressToken`: sent with the SDK's related notification,
 * so it travels on this request's own response stream (HTTP) or connection (stdio), never another's (SI-3).
 */
function requestProgress(ctx: ServerContext): ReturnType<typeof callProgress> | undefined {
  const progressToken = progressTokenOf(ctx.mcpReq._meta);
  if (progressToken === undefined) return undefined;
  return callProgress((update) => ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } }));
}

/**
 * Only a server bound to one connection that declared URL elicitation (stdio) can send the notification later; the
 * SDK refuses to build a notifier anywhere else (a stateless HTTP exchange), and then nothing is watched.
 */
function completionWatcher<TContext>(server: Server, prepared: PreparedGovernedServer<TContext>): ((approvalId: string) => void) | undefined {
  const completions = prepared.elicitation?.completions;
  if (completions === undefined) return undefined;
  const watched = new Map<string, () => void>();
  const previous = server.onclose;
  server.onclose = () => {
    for (const unwatch of watched.values()) unwatch();
    watched.clear();
    previous?.();
  };
  return (approvalId) => {
    if (watched.has(approvalId)) return;
    let notify: () => Promise<void>;
    try {
      notify = server.createElicitationCompletionNotifier(approvalId);
    } catch {
      return;
    }
    watched.set(
      approvalId,
      completions.watch(approvalId, () => {
        watched.delete(approvalId);
        return notify();
      }),
    );
  };
}

/** The client facts URL elicitation needs, per request: 2026-07-28 declares capabilities on every request. */
async function elicitationRequest<TContext>(
  server: Server,
  prepared: PreparedGovernedServer<TContext>,
  era: MCPRequestAuth["era"],
  ctx: ServerContext,
  principal: string,
): Promise<ElicitationRequest> {
  if (prepared.elicitation === undefined) return { era, urlCapable: false, requestState: undefined, declined: false };
  if (era === "legacy") return { era, urlCapable: await legacyUrlCapable(server, prepared.elicitation, principal), requestState: undefined, declined: false };
  const state = ctx.mcpReq.requestState<unknown>();
  const answer = ctx.mcpReq.inputResponses?.[APPROVAL_INPUT_KEY] as { action?: unknown } | undefined;
  return {
    era,
    urlCapable: declaresUrl((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY]),
    requestState: typeof state === "string" ? state : undefined,
    declined: answer?.action === "decline" || answer?.action === "cancel",
  };
}

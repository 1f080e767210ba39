import { createORPCClient, ORPCError, type Client } from "@orpc/client";
import { RPCLink } from "@orpc/client/fetch";
import { outcomeUnknown } from "../client/outcome-unknown.js";
import { linkRequest } from "../orpc/link-fetch.js";
import type {
  CapabilityClient,
  DescribeRequest,
  DescribeResponse,
  InvokeRequest,
  ReconcileRequest,
  ReconcileResult,
  RemoteCallOptions,
  RemoteExecuteOptions,
  RemoteExecutionResult,
  RemoteOperation,
  ResumeRequest,
} from "../client/types.js";
import { composeCallSignal } from "./call-signal.js";
import { CapabilityClientError } from "./client-error.js";
import { genericError, readFailureCode, refusalError } from "./refusals.js";
import { checkCallOptions, checkDescribeRequest, checkInvokeRequest, checkReconcileRequest, checkResumeRequest } from "./request-checks.js";
import { isDescribeResponse, isExecutionResult, isReconcileResult } from "./response-shape.js";
import { eventOf, progressOf } from "./stream-frames.js";
import { untilAborted } from "./until-aborted.js";

/** Options of {@link createHTTPCapabilityClient}. */
export type HTTPCapabilityClientOptions = {
  /** The RPCHandler base URL, including its prefix, e.g. `https://api.example.com/rpc`. */
  url: string | URL;
  /**
   * Where the capability router is mounted in the application router.
   * @default ["agent"]
   */
  path?: readonly string[];
  /** Sent with every call; a function is called per call (fresh tokens). */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /**
   * The fetch that sends each call, called with `globalThis` as `this`.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /** Aborts every call of this client. */
  signal?: AbortSignal;
  /**
   * Per call: a number for all operations or one per operation (an operation left out keeps the default).
   * @default 60_000
   */
  timeoutMs?: number | Partial<Record<RemoteOperation, number>>;
};

/** Per call: whether the request may have left, and the status if one came back. */
type CallState = { dispatched: boolean; status?: number };
type LinkContext = { call?: CallState };

type Sent<T> = { ok: true; value: T } | { ok: false; state: CallState; fired: "timeout" | "aborted" | undefined; error: unknown };

/** The router's event-iterator twins of `invoke` and `resume`. */
type StreamingProcedure = "invokeStream" | "resumeStream";

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A `CapabilityClient` over oRPC's RPC protocol (docs/architecture/spec/distributed.md#distributed-4). `invoke` and `resume` never reject once a
 * request may have left and never retry: a failure after dispatch resolves to `outcome-unknown`, and
 * `reconcile` is the explicit way to learn what happened. Definite refusals resolve to `failed`.
 *
 * @example
 * import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
 * declare function token(): string;
 * declare function allocateId(): Promise<string>; // commits the id before anything is sent
 * declare const orderId: string;
 * const client = createHTTPCapabilityClient({ url: "https://api.example.com/rpc", headers: () => ({ authorization: `Bearer ${token()}` }) });
 * const result = await client.invoke({ capabilityId: "orders.refund", input: { orderId }, invocationId: await allocateId() });
 */
export function createHTTPCapabilityClient(o: HTTPCapabilityClientOptions): CapabilityClient {
  assertClientOptions(o);
  const userFetch = o.fetch;
  // Called with globalThis as `this`, so an unbound `window.fetch` works as the option.
  const realFetch = (request: Request, init?: RequestInit) => (userFetch ?? globalThis.fetch).call(globalThis, request, init);
  const link = new RPCLink<LinkContext>({
    url: o.url.toString(),
    headers: async () => {
      const headers = typeof o.headers === "function" ? await o.headers() : o.headers;
      return headers === undefined ? {} : new Headers(headers);
    },
    // The line between "not sent" and "maybe sent" is drawn immediately before the real fetch.
    // oRPC 1 passes a Request here, oRPC 2 a URL string with the init; the seam makes both a Request.
    fetch: async (link: Request | string, linkInit, options) => {
      const state = options.context.call!;
      const { request, init } = linkRequest(link, linkInit);
      if (request.signal.aborted) throw request.signal.reason;
      state.dispatched = true;
      const response = await realFetch(request, init);
      state.status = response.status;
      return response;
    },
  });
  const remote = createORPCClient<Record<RemoteOperation | StreamingProcedure, Client<LinkContext, unknown, unknown, Error>>>(
    link,
    { path: [...(o.path ?? ["agent"])] },
  );

  const timeoutOf = (op: RemoteOperation, call: RemoteCallOptions | undefined): number =>
    call?.timeoutMs ?? (typeof o.timeoutMs === "number" ? o.timeoutMs : (o.timeoutMs?.[op] ?? DEFAULT_TIMEOUT_MS));

  async function send(op: RemoteOperation, input: unknown, call: RemoteCallOptions | undefined): Promise<Sent<unknown>> {
    const state: CallState = { dispatched: false };
    const signal = composeCallSignal([o.signal, call?.signal], timeoutOf(op, call));
    try {
      return { ok: true, value: await remote[op](input, { context: { call: state }, signal: signal.signal }) };
    } catch (error) {
      return { ok: false, state, fired: signal.fired, error };
    } finally {
      signal.release();
    }
  }

  /** invoke/resume: every failure becomes an envelope; after dispatch, an unknown outcome (docs/architecture/spec/distributed.md#distributed-4 table). */
  async function execute<O>(op: "invoke" | "resume", invocationId: string, input: unknown, call: RemoteExecuteOptions | undefined): Promise<RemoteExecutionResult<O>> {
    if (call?.onEvent !== undefined || call?.onProgress !== undefined) return executeStreaming<O>(op, invocationId, input, call);
    const sent = await send(op, input, call);
    if (sent.ok) {
      return isExecutionResult(sent.value, invocationId) ? (sent.value as RemoteExecutionResult<O>) : outcomeUnknown(invocationId, "unreadable-response");
    }
    return failedCall<O>(invocationId, sent.state, sent.fired);
  }

  /**
   * invoke/resume with `onEvent` or `onProgress`: the streaming procedure, read frame by frame. The next frame is read
   * only once `onEvent`'s promise settled, so a slow consumer holds the server's handler back (the response body is
   * not read meanwhile). The iterator's return value is the envelope; the failures map as for a plain call, and a
   * stream that breaks after its answer began is an unknown outcome.
   */
  async function executeStreaming<O>(op: "invoke" | "resume", invocationId: string, input: unknown, call: RemoteExecuteOptions): Promise<RemoteExecutionResult<O>> {
    const body = { ...(input as object), ...(call.onEvent !== undefined && { events: true }), ...(call.onProgress !== undefined && { progress: true }) };
    const state: CallState = { dispatched: false };
    const signal = composeCallSignal([o.signal, call.signal], timeoutOf(op, call));
    try {
      let frames: AsyncIterator<unknown, unknown>;
      try {
        frames = (await remote[op === "invoke" ? "invokeStream" : "resumeStream"](body, { context: { call: state }, signal: signal.signal })) as AsyncIterator<unknown, unknown>;
      } catch {
        return failedCall<O>(invocationId, state, signal.fired);
      }
      // A 200 that is not an event stream (a proxy's page, a server that answered JSON) says nothing readable.
      if (typeof (frames as { next?: unknown } | null)?.next !== "function") return outcomeUnknown(invocationId, "unreadable-response");
      for (;;) {
        let step: IteratorResult<unknown, unknown>;
        try {
          step = await frames.next();
        } catch (error) {
          if (signal.fired !== undefined) return outcomeUnknown(invocationId, signal.fired);
          return outcomeUnknown(invocationId, error instanceof ORPCError ? "server-error" : "transport");
        }
        if (step.done === true) {
          return isExecutionResult(step.value, invocationId) ? (step.value as RemoteExecutionResult<O>) : outcomeUnknown(invocationId, "unreadable-response");
        }
        const event = eventOf(step.value);
        if (event !== undefined && call.onEvent !== undefined) {
          let consumed: "taken" | "aborted";
          try {
            consumed = await untilAborted(call.onEvent(event.event), signal.signal);
          } catch {
            // The caller stopped taking events: the stream is closed, and whether the effect completed is unknown.
            await Promise.resolve(frames.return?.()).catch(() => undefined);
            return outcomeUnknown(invocationId, "aborted");
          }
          if (consumed === "aborted") {
            // Aborted or timed out while the consumer held the event: the call ends now, and the stream is let go
            // without waiting on it.
            void Promise.resolve()
              .then(() => frames.return?.())
              .catch(() => undefined);
            return outcomeUnknown(invocationId, signal.fired ?? "aborted");
          }
          continue;
        }
        const update = progressOf(step.value);
        if (update !== undefined && call.onProgress !== undefined) {
          try {
            call.onProgress(update);
          } catch {
            // What the callback throws never changes the call.
          }
        }
      }
    } finally {
      signal.release();
    }
  }

  /** A call that failed before its answer could be read: `cancelled` or `failed` when nothing left, else per the table. */
  function failedCall<O>(invocationId: string, state: CallState, fired: "timeout" | "aborted" | undefined): RemoteExecutionResult<O> {
    const base = { protocol: 1 as const, invocationId, executionId: "", replayed: false };
    if (!state.dispatched) {
      if (fired === "aborted") return { ...base, status: "cancelled", error: { code: "CANCELLED", message: "The operation was cancelled.", retryable: false } };
      if (fired === "timeout") return { ...base, status: "cancelled", error: { code: "TIMEOUT", message: "The operation timed out.", retryable: true } };
      return { ...base, status: "failed", error: genericError() };
    }
    const refusal = state.status === undefined ? undefined : refusalError(state.status);
    if (refusal !== undefined) return { ...base, status: "failed", error: refusal };
    if (fired !== undefined) return outcomeUnknown(invocationId, fired);
    if (state.status === undefined) return outcomeUnknown(invocationId, "transport");
    return outcomeUnknown(invocationId, state.status >= 200 && state.status < 300 ? "unreadable-response" : "server-error");
  }

  /** describe/reconcile: reads reject with a `CapabilityClientError`. */
  async function read<T>(op: "describe" | "reconcile", input: unknown, call: RemoteCallOptions | undefined, valid: (v: unknown) => boolean): Promise<T> {
    const sent = await send(op, input, call);
    if (sent.ok) {
      if (valid(sent.value)) return sent.value as T;
      throw new CapabilityClientError({ operation: op, code: "PROTOCOL", message: `The ${op} response is not a protocol 1 answer.`, status: 200 });
    }
    const { state, fired, error } = sent;
    const fail = (code: CapabilityClientError["code"], message: string, status?: number): never => {
      throw new CapabilityClientError({ operation: op, code, message, status, cause: error });
    };
    if (state.status !== undefined && (fired === undefined || refusalError(state.status) !== undefined)) {
      const code = readFailureCode(state.status, error instanceof ORPCError ? error.data : undefined);
      return fail(code, `The ${op} request failed with HTTP ${state.status} (${code}).`, state.status);
    }
    if (fired === "timeout") return fail("TIMEOUT", `The ${op} request timed out.`);
    if (fired === "aborted") return fail("TRANSPORT", `The ${op} request was aborted.`);
    return fail("TRANSPORT", state.dispatched ? `The ${op} request failed in transport.` : `The ${op} request could not be prepared.`);
  }

  return {
    async describe(req?: DescribeRequest, call?: RemoteCallOptions): Promise<DescribeResponse> {
      checkDescribeRequest(req);
      checkCallOptions("describe", call);
      return read<DescribeResponse>("describe", req ?? {}, call, isDescribeResponse);
    },
    async invoke<O>(req: InvokeRequest, call?: RemoteExecuteOptions): Promise<RemoteExecutionResult<O>> {
      checkInvokeRequest(req);
      checkCallOptions("invoke", call);
      return execute<O>("invoke", req.invocationId, req, call);
    },
    async resume<O>(req: ResumeRequest, call?: RemoteExecuteOptions): Promise<RemoteExecutionResult<O>> {
      checkResumeRequest(req);
      checkCallOptions("resume", call);
      return execute<O>("resume", req.invocationId, req, call);
    },
    async reconcile<O>(req: ReconcileRequest, call?: RemoteCallOptions): Promise<ReconcileResult<O>> {
      checkReconcileRequest(req);
      checkCallOptions("reconcile", call);
      return read<ReconcileResult<O>>("reconcile", req, call, (v) => isReconcileResult(v, req.invocationId));
    },
  };
}

function assertClientOptions(o: HTTPCapabilityClientOptions): void {
  const example = 'createHTTPCapabilityClient({ url: "https://api.example.com/rpc" })';
  if (typeof o !== "object" || o === null) throw new TypeError(`createHTTPCapabilityClient needs options: ${example}.`);
  if (!(typeof o.url === "string" || o.url instanceof URL)) throw new TypeError(`createHTTPCapabilityClient: url must be a string or URL, e.g. ${example}.`);
  try {
    new URL(o.url);
  } catch {
    throw new TypeError("createHTTPCapabilityClient: url must be an absolute URL, including the RPCHandler prefix.");
  }
  if (o.path !== undefined && (!Array.isArray(o.path) || o.path.length === 0 || o.path.some((s) => typeof s !== "string" || s.length === 0))) {
    throw new TypeError('createHTTPCapabilityClient: path must be a non-empty array of non-empty strings, e.g. ["agent"].');
  }
  if (o.headers !== undefined && typeof o.headers !== "function" && (typeof o.headers !== "object" || o.headers === null)) {
    throw new TypeError("createHTTPCapabilityClient: headers must be HeadersInit or a function returning it.");
  }
  if (o.fetch !== undefined && typeof o.fetch !== "function") throw new TypeError("createHTTPCapabilityClient: fetch must be a function.");
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) throw new TypeError("createHTTPCapabilityClient: signal must be an AbortSignal.");
  const timeouts = typeof o.timeoutMs === "object" && o.timeoutMs !== null ? Object.entries(o.timeoutMs) : o.timeoutMs === undefined ? [] : [["timeoutMs", o.timeoutMs]];
  for (const [key, value] of timeouts) {
    if (key !== "timeoutMs" && !["describe", "invoke", "resume", "reconcile"].includes(key as string)) {
      throw new TypeError(`createHTTPCapabilityClient: unknown timeoutMs operation "${key}".`);
    }
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new TypeError("createHTTPCapabilityClient: timeoutMs must be a finite number > 0, or one per operation.");
    }
  }
}

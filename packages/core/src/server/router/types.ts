import type { Context, Procedure, Schema } from "@orpc/server";
import type { Actor } from "../../vocabulary/types.js";
import type {
  DescribeRequest,
  DescribeResponse,
  InvokeRequest,
  InvokeStreamRequest,
  ReconcileRequest,
  ReconcileResult,
  RemoteExecutionResult,
  RemoteOperation,
  RemoteStreamFrame,
  RemoteSurface,
  ResumeRequest,
  ResumeStreamRequest,
} from "../../client/types.js";
import type { AgentRuntime } from "../../runtime/types.js";
import type { InvocationService } from "../service/types.js";

/** What every `authorize` callback sees: server-fixed values only, never raw input. */
export type Auth<TApp> = { actor: Actor; context: TApp; surface: RemoteSurface; namespace: string };

/** Options of `createCapabilityRouter`. */
export type CapabilityRouterOptions<TReq extends Context, TApp> = {
  service: InvocationService;
  /** A runtime, or a factory called once per request (docs/architecture/spec/core.md#core-5: one runtime per request). */
  runtime: AgentRuntime<TApp> | ((a: { context: TReq; actor: Actor }) => AgentRuntime<TApp> | Promise<AgentRuntime<TApp>>);
  /** Fixed by the server (D-1); `"direct"` and `"test"` are not network surfaces. */
  surface: RemoteSurface;
  /** Authenticates the request: the actor and application context, or `null` (→ 401). */
  resolve(a: { context: TReq; operation: RemoteOperation; signal?: AbortSignal }): Promise<{ actor: Actor; context: TApp } | null>;
  /** One explicit decision per operation (D-2): anything but `true`, or a throw, denies (→ 403). */
  authorize: {
    describe(a: Auth<TApp> & { request: DescribeRequest }): boolean | Promise<boolean>;
    invoke(a: Auth<TApp> & { capabilityId: string; invocationId: string }): boolean | Promise<boolean>;
    resume(a: Auth<TApp> & { invocationId: string; approvalId: string }): boolean | Promise<boolean>;
    reconcile(a: Auth<TApp> & { invocationId: string }): boolean | Promise<boolean>;
  };
  /**
   * Which operations a dropped connection cancels; with `"reads"`, writes run to their own timeout and settle.
   * @default "reads"
   */
  abortOnDisconnect?: "reads" | "all" | "none";
  /**
   * Await the request runtime's `drainAudit` before responding (docs/architecture/spec/distributed.md#distributed-7).
   * @default false
   */
  drainAudit?: false | { timeoutMs: number };
};

type Meta = Record<never, never>;
type Errors = Record<never, never>;
type RouterProcedure<TReq extends Context, I, O> = Procedure<TReq, TReq, Schema<I, I>, Schema<O, O>, Errors, Meta>;

/** A streaming procedure's answer: frames, then the envelope as the iterator's return value. */
export type RemoteFrameStream = AsyncIteratorObject<RemoteStreamFrame, RemoteExecutionResult, void>;

/**
 * Six oRPC procedures, mountable under any key of an existing router: the four operations, and `invokeStream` and
 * `resumeStream`, which answer `invoke` and `resume` as an event iterator (events and progress as frames).
 */
export type CapabilityRouter<TReq extends Context> = {
  describe: RouterProcedure<TReq, DescribeRequest, DescribeResponse>;
  invoke: RouterProcedure<TReq, InvokeRequest, RemoteExecutionResult>;
  resume: RouterProcedure<TReq, ResumeRequest, RemoteExecutionResult>;
  reconcile: RouterProcedure<TReq, ReconcileRequest, ReconcileResult>;
  invokeStream: RouterProcedure<TReq, InvokeStreamRequest, RemoteFrameStream>;
  resumeStream: RouterProcedure<TReq, ResumeStreamRequest, RemoteFrameStream>;
};

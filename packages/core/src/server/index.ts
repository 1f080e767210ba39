// @orpc-agent/core/server — the invocation service, its journal and the remote capability router (docs/architecture/spec/distributed.md#distributed-3, docs/architecture/spec/distributed.md#distributed-5).

// Invocation service
export { createInvocationService } from "./service/create-invocation-service.js";
export { InvocationNotResolvableError } from "./service/resolve.js";
export { invocationIdempotencyKey } from "./service/hashing.js";
export type {
  InvocationEvent,
  InvocationEventType,
  InvocationService,
  InvocationServiceOptions,
  InvocationServiceRecord,
  ResolveArgs,
  ServiceInvokeOptions,
  ServiceResumeOptions,
  StreamHooks,
} from "./service/types.js";

// Invocation journal
export { createInMemoryInvocationJournal } from "./journal/in-memory-journal.js";
export type {
  ClaimResult,
  InvocationJournal,
  InvocationKey,
  InvocationRecord,
  InvocationResolution,
  InvocationState,
  JournalBeginEntry,
  JournalFinish,
  JournalListFilter,
  JournalOutcome,
  JournalResolveTarget,
} from "./journal/types.js";

// Router
export { createCapabilityRouter } from "./router/create-capability-router.js";
export { createInProcessCapabilityClient } from "./router/in-process-client.js";
export type { Auth, CapabilityRouter, CapabilityRouterOptions, RemoteFrameStream } from "./router/types.js";
export type { ToolNaming } from "./descriptors/tool-names.js";

import type { AuditActorRef } from "../../audit/types.js";
import type { ExposureSurface } from "../../vocabulary/types.js";
import type { RemoteSurface } from "../../client/types.js";
import type { AgentCapability } from "../../registry/types.js";
import type { ToolNaming } from "../descriptors/tool-names.js";
import type { InvocationJournal } from "../journal/types.js";
import type { InvocationEvent, InvocationEventType, InvocationService } from "./types.js";

/** What every service operation reads: options resolved once at creation. */
export type ServiceState = {
  readonly journal: InvocationJournal;
  readonly namespace: string;
  readonly revision: string;
  readonly leaseMs: number;
  readonly maxStoredOutputBytes: number;
  readonly toolNaming: ToolNaming | undefined;
  readonly now: () => Date;
  readonly digestOf: (surface: RemoteSurface | ExposureSurface, capability: AgentCapability) => Promise<string>;
  readonly emit: (type: InvocationEventType, subject: EventSubject, data?: InvocationEvent["data"]) => void;
};

/** Who and what a journal event is about. */
export type EventSubject = { invocationId: string; capabilityId: string; surface: ExposureSurface; actor: AuditActorRef };

export function createEmitter(onEvent: ((e: InvocationEvent) => void) | undefined, now: () => Date): ServiceState["emit"] {
  if (onEvent === undefined) return () => {};
  return (type, subject, data) => {
    const event: InvocationEvent = {
      type,
      timestamp: now(),
      invocationId: subject.invocationId,
      capabilityId: subject.capabilityId,
      surface: subject.surface,
      actor: { id: subject.actor.id, kind: subject.actor.kind },
    };
    if (data !== undefined) event.data = data;
    try {
      onEvent(Object.freeze(event));
    } catch (error) {
      // A failing event consumer must not change an outcome that already happened.
      console.error("[orpc-agent] invocation service onEvent threw:", error);
    }
  };
}

/** The `toolNaming` a service was created with; the router reads it from the service it wraps (docs/architecture/spec/distributed.md#distributed-2-2). */
export const serviceToolNaming = new WeakMap<InvocationService, ToolNaming | undefined>();

import { ConfigurationError, isWellFormedActor } from "@orpc-agent/core/adapter";
import type { AISDKToolsOptions } from "./to-ai-sdk-tools.js";

// Programmer errors surface at build as TypeErrors; nothing here ever reaches a model.

export function assertToolsOptions(options: AISDKToolsOptions<unknown>): void {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("toAISDKTools: options must be an object: { actor, context, scope?, filter?, toolNaming?, signal?, correlationId? }.");
  }
  if (!isWellFormedActor(options.actor)) {
    throw new ConfigurationError(
      "toAISDKTools: options.actor must be a well-formed actor ({ id: non-empty string, kind: user | service | automation | anonymous }) from the authenticated session.",
    );
  }
  const via = options.via as { id?: unknown; displayName?: unknown } | null | undefined;
  if (via !== undefined && (typeof via !== "object" || via === null || typeof via.id !== "string" || via.id.length === 0 || (via.displayName !== undefined && typeof via.displayName !== "string"))) {
    throw new ConfigurationError("toAISDKTools: options.via must be { id: non-empty string; displayName?: string }: the acting agent's identity from the host.");
  }
  if (options.filter !== undefined && typeof options.filter !== "function") throw new ConfigurationError("toAISDKTools: options.filter must be a function when given.");
  if (options.toolNaming !== undefined && typeof options.toolNaming !== "function") {
    throw new ConfigurationError("toAISDKTools: options.toolNaming must be a function (capabilityId) => string when given.");
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new ConfigurationError("toAISDKTools: options.signal must be an AbortSignal when given.");
  if (options.correlationId !== undefined && (typeof options.correlationId !== "string" || options.correlationId.length === 0)) {
    throw new ConfigurationError("toAISDKTools: options.correlationId must be a non-empty string when given.");
  }
}

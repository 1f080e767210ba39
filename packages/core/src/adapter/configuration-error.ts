const BRAND = Symbol.for("@orpc-agent/core.ConfigurationError");

/**
 * A mistake in how an application wires the library (a tool-name collision, a missing option), thrown when a
 * runtime, tool set or server is built and never on a call. A `TypeError`, so existing `instanceof TypeError`
 * checks keep working; `ConfigurationError.isInstance` also recognises one thrown by a second copy of this module.
 *
 * @example
 * import { toAISDKTools, type AISDKToolsOptions } from "@orpc-agent/ai-sdk";
 * import type { AgentRuntime } from "@orpc-agent/core";
 * import { ConfigurationError } from "@orpc-agent/core/adapter";
 * declare const runtime: AgentRuntime, options: AISDKToolsOptions;
 * declare function report(message: string): void;
 * try { await toAISDKTools(runtime, options); } catch (error) { if (ConfigurationError.isInstance(error)) report(error.message); }
 */
export class ConfigurationError extends TypeError {
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConfigurationError";
  }

  static isInstance(value: unknown): value is ConfigurationError {
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

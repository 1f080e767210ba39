import type { Actor } from "@orpc-agent/core";
import type { AISDKToolsOptions } from "./options.js";

/**
 * The principal one build acts as: the session's actor with the host's acting agent, when it names one, in place of
 * any `actor.via` (SI-3). Tools invoke as it, and chat confirmations are answered as it, so a request and its
 * answer are compared on the same principal.
 */
export function boundActor(options: Pick<AISDKToolsOptions<unknown>, "actor" | "via">): Actor {
  return options.via === undefined ? options.actor : { ...options.actor, via: { ...options.via } };
}

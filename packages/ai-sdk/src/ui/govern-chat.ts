import type { UIMessageChunk } from "ai";
import type { AgentRuntime } from "@orpc-agent/core";
import { boundActor } from "../bound-actor.js";
import { assertToolsOptions } from "../options.js";
import { toLocalAISDKTools } from "../to-ai-sdk-tools.js";
import { toolNameMapFor } from "../tool-names.js";
import type { AISDKToolsOptions } from "../options.js";
import type { AISDKToolSet } from "../types.js";
import { answerConfirmations, type AnsweredConversation, type ConfirmationAnswer } from "./answer-confirmations.js";
import { governUIMessageStream } from "./govern-ui-stream.js";
import { conversationGrantOffer } from "./grant-offer.js";
import { createProgressRelay } from "./progress-relay.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

export type GovernedChatOptions<TContext = unknown> = AISDKToolsOptions<TContext> & {
  /**
   * Opt-in: approval types the requester confirms in the chat. List exactly the runtime's
   * `approvals.requesterConfirmable`; a request demanding any other type stays a card someone decides in the app.
   * Default none: no approval ever becomes an SDK approval request. With `conversationId`, a confirmation card of a
   * capability whose `approval.grants` caps allow the `conversation` scope also offers "allow for this conversation":
   * a standing grant of the caps' `maxUses` more calls for `maxTtlMs`, in this chat only (SI-13).
   */
  requesterConfirmable?: readonly string[];
};

/** One chat request's governed tools, UI stream rewrite and answer routing, all bound to one actor and context. */
export type GovernedChat = {
  /** The same tools `toAISDKTools` builds: `needsApproval` and `toolApproval` stay unset. */
  tools: AISDKToolSet;
  /**
   * Part states for governed outcomes; apply to `result.toUIMessageStream()` of the loop that used `tools`. It also
   * carries the progress the calls of these tools report, as transient `data-tool-progress` parts (`onData`).
   */
  toUIMessageStream(stream: ReadableStream<UIMessageChunk>): ReadableStream<UIMessageChunk>;
  /**
   * Before the loop: turns the browser's answers into runtime decisions and executions (never the SDK's). `answers`
   * is the `ai` 5 fallback, answers the app received itself.
   */
  answerConfirmations<M extends { role: string; parts: readonly unknown[] }>(messages: readonly M[], answers?: readonly ConfirmationAnswer[]): Promise<AnsweredConversation<M>>;
};

/**
 * Governed tools for an AI SDK UI chat (`useChat`): outcomes render as native part states, approvals as cards
 * keyed by approval id, and requester confirmations (opt-in) use the SDK's approval parts while every answer
 * is decided by the runtime on a record bound to the input's hash (SI-4, SI-5). Build it per request.
 *
 * @example
 * import { governChat } from "@orpc-agent/ai-sdk";
 * import type { Actor, AgentRuntime } from "@orpc-agent/core";
 * import { convertToModelMessages, streamText, type LanguageModel, type UIMessage } from "ai";
 * declare const runtime: AgentRuntime<{ tenant: string }>, context: { tenant: string }, session: { actor: Actor };
 * declare const body: { messages: UIMessage[] }, model: LanguageModel;
 * const chat = await governChat(runtime, { actor: session.actor, context, requesterConfirmable: ["confirmation"] });
 * const { messages, chunks } = await chat.answerConfirmations(body.messages);
 * const result = streamText({ model, tools: chat.tools, messages: await convertToModelMessages(messages) });
 */
export async function governChat<TContext>(runtime: AgentRuntime<TContext>, options: GovernedChatOptions<TContext>): Promise<GovernedChat> {
  assertToolsOptions(options);
  const confirmable = new Set(options.requesterConfirmable ?? []);
  if (![...confirmable].every((type) => typeof type === "string" && type.length > 0)) {
    throw new ConfigurationError('governChat: options.requesterConfirmable must be an array of approval type names, e.g. ["confirmation"].');
  }
  const { requesterConfirmable: _, ...toolOptions } = options;
  // Approvals this request's calls demanded, by the SDK call id: only these can become SDK approval requests.
  const demanded = new Map<string, { approvalId: string; capabilityId: string; types: readonly string[] }>();
  // This request's progress reports, for this request's UI streams only (SI-3).
  const progress = createProgressRelay();
  const tools = await toLocalAISDKTools(runtime, toolOptions, {
    observe(toolCallId, result) {
      if (result.status === "approval-required") {
        demanded.set(toolCallId, { approvalId: result.approval.id, capabilityId: result.approval.capabilityId, types: [...result.approval.types] });
      }
    },
    progress: progress.report,
  });
  const names = toolNameMapFor(runtime.registry, options.toolNaming);
  const toolNames = new Set(Object.keys(tools));
  // SI-13: "allow for this conversation" is offered only where the capability's caps allow it, in a chat with an id.
  const grantOffer = (capabilityId: string) => conversationGrantOffer(runtime.registry, capabilityId, options.conversationId);
  const isConfirmable = (toolCallId: string, approvalId: string) => {
    const entry = demanded.get(toolCallId);
    return entry !== undefined && entry.approvalId === approvalId && entry.types.length > 0 && entry.types.every((type) => confirmable.has(type));
  };

  return {
    tools,
    toUIMessageStream: (stream) =>
      governUIMessageStream(stream, {
        toolNames,
        progress,
        isConfirmable,
        grantOffer: (toolCallId, approvalId) => (isConfirmable(toolCallId, approvalId) ? grantOffer(demanded.get(toolCallId)!.capabilityId) : undefined),
      }),
    answerConfirmations: (messages, answers) =>
      answerConfirmations(
        {
          runtime,
          // With the acting agent: an answer is compared with the request on the whole principal (SI-3).
          actor: boundActor(options),
          context: options.context,
          ...(options.signal ? { signal: options.signal } : {}),
          confirmable,
          toolNameOf: (capabilityId) => names.nameOf(capabilityId),
          toolNames,
          ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
          grantOffer,
        },
        messages,
        answers,
      ),
  };
}

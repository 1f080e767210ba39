import type { Builder, BuilderWithMiddlewares, Context, ErrorMap, Meta, Schema } from "@orpc/server";
import type { AgentInvocationInfo, AgentMeta } from "./types.js";

// Mirrors @orpc/contract's AnySchema, which @orpc/server does not re-export.
type AnySchema = Schema<any, any>;

/** What `agentProcedure` adds to a builder's meta: the `agent` key read by the registry. */
export type AgentProcedureMeta = { agent?: AgentMeta };

/** What `agentProcedure` adds to a builder's contexts: `ctx.agent`, set only on runtime calls. */
export type AgentProcedureContext = { agent?: AgentInvocationInfo };

/** The shape of an oRPC 2 builder: its definition keeps `orderedMiddlewares` (oRPC 1 keeps `middlewares`). */
export type ORPCV2BuilderLike = { "~orpc": { orderedMiddlewares: readonly unknown[] } };

/** @deprecated Use ORPCV2BuilderLike (acronyms are upper-case across the public API, as in oRPC's own `ORPCError`). */
export type OrpcV2BuilderLike = ORPCV2BuilderLike;

/**
 * Types an oRPC builder for agent capabilities: on oRPC 1, `.meta({ agent })` is checked against
 * `AgentMeta` and handlers see `context.agent`. Type-level only: the builder itself is
 * returned, so procedures stay ordinary oRPC procedures (docs/architecture/spec/core.md#core-1, ADR-001).
 *
 * On oRPC 2 (`.meta()` takes meta plugins) the builder's type is returned as is: declare with
 * `.meta(agentMeta({ ... }))` (checked against `AgentMeta` by `agentMeta`) and add `context.agent`
 * with `$context<{ agent?: AgentInvocationInfo }>()`. See docs/guides/orpc-2.md.
 *
 * Call it after `$context` / `$meta`, which replace the types it adds.
 *
 * @example
 * import { os } from "@orpc/server";
 * import { agentMeta, agentProcedure, type Actor } from "@orpc-agent/core";
 * import { z } from "zod";
 * declare interface Db { refund(orderId: string, requestedBy?: Actor): Promise<{ refundId: string }> }
 * const ap = agentProcedure(os.$context<{ db: Db }>());
 * export const refund = ap
 *   .input(z.object({ orderId: z.string() }))
 *   .meta(agentMeta({ description: "Refund an order", expose: { aiSdk: true },
 *                     sideEffect: "write", risk: "high" }))
 *   .handler(({ input, context }) => context.db.refund(input.orderId, context.agent?.actor));
 */
// First, so an oRPC 2 builder is matched by its shape before the 1.x overloads are tried.
export function agentProcedure<TBuilder extends ORPCV2BuilderLike>(builder: TBuilder): TBuilder;
export function agentProcedure<
  TInitialContext extends Context,
  TCurrentContext extends Context,
  TInputSchema extends AnySchema,
  TOutputSchema extends AnySchema,
  TErrorMap extends ErrorMap,
  TMeta extends Meta,
>(
  builder: Builder<TInitialContext, TCurrentContext, TInputSchema, TOutputSchema, TErrorMap, TMeta>,
): Builder<
  TInitialContext & AgentProcedureContext,
  TCurrentContext & AgentProcedureContext,
  TInputSchema,
  TOutputSchema,
  TErrorMap,
  TMeta & AgentProcedureMeta
>;
export function agentProcedure<
  TInitialContext extends Context,
  TCurrentContext extends Context,
  TInputSchema extends AnySchema,
  TOutputSchema extends AnySchema,
  TErrorMap extends ErrorMap,
  TMeta extends Meta,
>(
  builder: BuilderWithMiddlewares<TInitialContext, TCurrentContext, TInputSchema, TOutputSchema, TErrorMap, TMeta>,
): BuilderWithMiddlewares<
  TInitialContext & AgentProcedureContext,
  TCurrentContext & AgentProcedureContext,
  TInputSchema,
  TOutputSchema,
  TErrorMap,
  TMeta & AgentProcedureMeta
>;
export function agentProcedure(builder: unknown): unknown {
  return builder;
}

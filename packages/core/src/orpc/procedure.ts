import * as server from "@orpc/server";
import { Procedure, type AnyProcedure, type Schema } from "@orpc/server";

// The one place that knows how oRPC 1.x and 2.x lay out a procedure (ADR-001 addendum, docs/guides/orpc-2.md).
// Everything is decided from the procedure's own definition, so a registry built from either major reads right
// whichever `@orpc/server` this package resolved. Core is compiled against the 1.x types; 2.x fields are typed here.

type AnySchema = Schema<any, any>;

/** The 2.x definition fields core reads. */
type V2Definition = {
  inputSchemas?: readonly AnySchema[];
  outputSchemas?: readonly AnySchema[];
  orderedMiddlewares: readonly { inputSchemasLengthAtUse?: number }[];
  metaPlugins?: readonly unknown[];
};

/** 2.x exports that 1.x lacks; reached through the namespace so a missing one is `undefined`, not a link error. */
type V2Exports = { Lazy?: abstract new (...args: never[]) => unknown; defineMeta?: unknown };
const v2 = server as unknown as V2Exports & Partial<Pick<typeof server, "isLazy" | "isProcedure">>;

/** The major of the `@orpc/server` this package resolved. */
export const ORPC_MAJOR: 1 | 2 = typeof v2.defineMeta === "function" ? 2 : 1;

function v2Definition(def: object): V2Definition | undefined {
  return Array.isArray((def as { orderedMiddlewares?: unknown }).orderedMiddlewares) ? (def as V2Definition) : undefined;
}

export function isOrpcProcedure(value: unknown): value is AnyProcedure {
  if (v2.isProcedure !== undefined) return v2.isProcedure(value);
  return value instanceof Procedure;
}

export function isOrpcLazy(value: unknown): boolean {
  if (v2.isLazy !== undefined) return v2.isLazy(value);
  return v2.Lazy !== undefined && value instanceof v2.Lazy;
}

/** A procedure's schemas. 2.x allows `.input()`/`.output()` several times; `inputCount`/`outputCount` say how often. */
export type ProcedureSchemas = {
  inputSchema: AnySchema | undefined;
  outputSchema: AnySchema | undefined;
  inputCount: number;
  outputCount: number;
};

export function procedureSchemas(procedure: AnyProcedure): ProcedureSchemas {
  const def = procedure["~orpc"];
  const two = v2Definition(def);
  if (two === undefined) {
    return { inputSchema: def.inputSchema, outputSchema: def.outputSchema, inputCount: def.inputSchema === undefined ? 0 : 1, outputCount: def.outputSchema === undefined ? 0 : 1 };
  }
  const inputs = two.inputSchemas ?? [];
  const outputs = two.outputSchemas ?? [];
  return { inputSchema: inputs[0], outputSchema: outputs[0], inputCount: inputs.length, outputCount: outputs.length };
}

/**
 * The same procedure without input validation, for stage 11 (ADR-020). On 2.x each middleware records how many
 * input schemas existed when it was added; those counts are zeroed with the schemas so no validation step remains.
 */
export function withoutInputSchema(procedure: AnyProcedure): AnyProcedure {
  const def = procedure["~orpc"];
  const two = v2Definition(def);
  if (two === undefined) {
    if (def.inputSchema === undefined) return procedure;
    return new Procedure({ ...def, inputSchema: undefined });
  }
  if ((two.inputSchemas ?? []).length === 0) return procedure;
  const orderedMiddlewares = two.orderedMiddlewares.map((entry) => ({ ...entry, inputSchemasLengthAtUse: 0 }));
  return new Procedure({ ...def, inputSchemas: undefined, orderedMiddlewares } as unknown as typeof def);
}

/** A rewrite of the options oRPC hands each middleware and the handler (stage 11's on-demand signal). */
export type CallOptionsWrapper = (options: Record<string, unknown>) => Record<string, unknown>;

type AnyFn = (...args: any[]) => any;

/**
 * The same procedure with every middleware and the handler receiving `wrap(options)`. Both majors lay the chain out
 * differently (1.x `middlewares`, 2.x `orderedMiddlewares[].middleware`); names are kept for oRPC's span names.
 */
export function withWrappedCallOptions(procedure: AnyProcedure, wrap: CallOptionsWrapper): AnyProcedure {
  const def = procedure["~orpc"];
  const handler = def.handler as AnyFn;
  const wrappedHandler = (options: Record<string, unknown>, ...rest: unknown[]) => handler(wrap(options), ...rest);
  const two = v2Definition(def);
  if (two === undefined) {
    const middlewares = def.middlewares.map((mid) => wrapMiddleware(mid as AnyFn, wrap));
    return new Procedure({ ...def, middlewares, handler: wrappedHandler } as unknown as typeof def);
  }
  const orderedMiddlewares = two.orderedMiddlewares.map((entry) => {
    const { middleware } = entry as { middleware: AnyFn };
    return { ...entry, middleware: wrapMiddleware(middleware, wrap) };
  });
  return new Procedure({ ...def, orderedMiddlewares, handler: wrappedHandler } as unknown as typeof def);
}

function wrapMiddleware(middleware: AnyFn, wrap: CallOptionsWrapper): AnyFn {
  const wrapped = (options: Record<string, unknown>, ...rest: unknown[]) => middleware(wrap(options), ...rest);
  Object.defineProperty(wrapped, "name", { value: middleware.name });
  return wrapped;
}

/**
 * 2.x only: whether `.meta()` was handed a plain object carrying `agent` (1.x style). 2.x keeps such an object
 * among its meta plugins but never applies it, so the capability would silently vanish.
 */
export function hasIgnoredAgentMeta(procedure: AnyProcedure): boolean {
  const two = v2Definition(procedure["~orpc"]);
  if (two === undefined) return false;
  return (two.metaPlugins ?? []).some(
    (plugin) =>
      typeof plugin === "object" &&
      plugin !== null &&
      Object.prototype.hasOwnProperty.call(plugin, "agent") &&
      typeof (plugin as { init?: unknown }).init !== "function",
  );
}

import type { Attributes } from "@opentelemetry/api";

/**
 * The attributes of the `exception` event for `recordError`: the error's name and `code: publicMessage`, nothing else.
 * Never `span.recordException`, which would copy `message` and `stack`; cause and details stay out too
 * (docs/architecture/spec/adapters.md#adapters-6, SI-10). A value without a public code gets a type and no message.
 */
export function exceptionEventAttributes(error: unknown): Attributes {
  const attributes: Attributes = { "exception.type": errorName(error) };
  const message = publicText(error);
  if (message !== undefined) attributes["exception.message"] = message;
  return attributes;
}

function errorName(error: unknown): string {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" && name.length > 0 ? name : "Error";
}

function publicText(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, publicMessage } = error as { code?: unknown; publicMessage?: unknown };
  if (typeof code !== "string") return undefined;
  return typeof publicMessage === "string" ? `${code}: ${publicMessage}` : code;
}

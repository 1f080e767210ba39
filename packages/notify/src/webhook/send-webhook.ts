import type { Webhook } from "standardwebhooks";

/** What one POST of a signed message came to. */
export type AttemptOutcome =
  | { readonly kind: "delivered"; readonly status: number }
  /** Worth trying again: a network error or timeout, a 5xx, a 429. */
  | { readonly kind: "retryable"; readonly status?: number; readonly error: string; readonly retryAfterMs?: number }
  /** Trying again cannot help: any other non-2xx answer (a 4xx, a redirect). */
  | { readonly kind: "final"; readonly status: number; readonly error: string };

export type SignedMessage = { readonly id: string; readonly body: string };

export type SendOptions = {
  url: string;
  webhook: Webhook;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  /** The instant signed into `webhook-timestamp`: the attempt's, so a retry is not refused as stale. */
  now: Date;
};

/**
 * One POST of a message signed per the Standard Webhooks specification: `webhook-id` (the same on every attempt, so
 * a receiver can drop a replay), `webhook-timestamp` (this attempt's) and `webhook-signature` over id, timestamp and
 * the exact body bytes. Never throws: every failure is an outcome.
 */
export async function sendWebhook(message: SignedMessage, options: SendOptions): Promise<AttemptOutcome> {
  const headers = {
    "content-type": "application/json",
    "user-agent": "orpc-agent-notify",
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(options.now.getTime() / 1000)),
    "webhook-signature": options.webhook.sign(message.id, options.now, message.body),
  };
  let response: Response;
  try {
    // Redirects are not followed: a signed delivery goes to the configured URL or nowhere.
    response = await options.fetch(options.url, { method: "POST", headers, body: message.body, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    return { kind: "retryable", error: `request failed: ${describe(error)}` };
  }
  // The body is not read for its content; draining it frees the connection.
  await response.body?.cancel().catch(() => {});
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  if (status === 429 || status >= 500) {
    const retryAfterMs = retryAfter(response.headers.get("retry-after"), options.now);
    return { kind: "retryable", status, error: `HTTP ${status}`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  return { kind: "final", status, error: `HTTP ${status}` };
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; absent or unreadable is undefined. */
function retryAfter(header: string | null, now: Date): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now.getTime()) : undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

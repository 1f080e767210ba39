/** Hooks on a response body: it ended (fully sent, or failed), or its reader went away first (client left). */
export type BodyHooks = { onEnd?: () => void; onCancel?: () => void };

/** The same response, with a body that reports how it finished. A response without a body ends at once. */
export function observeBody(response: Response, hooks: BodyHooks): Response {
  const body = response.body;
  if (body === null) {
    hooks.onEnd?.();
    return response;
  }
  const reader = body.getReader();
  let settled = false;
  const settle = (hook: (() => void) | undefined) => {
    if (settled) return;
    settled = true;
    hook?.();
  };
  const observed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        settle(hooks.onEnd);
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        settle(hooks.onEnd);
      } else {
        controller.enqueue(chunk.value);
      }
    },
    async cancel(reason) {
      settle(hooks.onCancel);
      await reader.cancel(reason).catch(() => undefined);
    },
  });
  return new Response(observed, { status: response.status, statusText: response.statusText, headers: response.headers });
}

import type { IncomingMessage } from "node:http";

export type NodeRequestBody = {
  stream: ReadableStream<Uint8Array>;
  /** Whether the reader gave up before the end (e.g. the body limit): the rest is never read. */
  abandoned(): boolean;
};

/**
 * The request body as a web stream, read only on demand (highWaterMark 0): nothing is buffered before the handler
 * asks, and a body the handler never reads is left to Node, which discards it after the response. Written by hand
 * because Node 20's `Readable.toWeb` throws on data arriving after its stream is cancelled.
 */
export function nodeRequestBody(req: IncomingMessage): NodeRequestBody {
  let abandoned = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (req.readableEnded) {
          controller.close();
          return;
        }
        return new Promise<void>((resolve) => {
          const detach = () => {
            req.off("data", onData);
            req.off("end", onEnd);
            req.off("error", onError);
            req.off("close", onClose);
          };
          const onData = (chunk: Buffer) => {
            req.pause();
            detach();
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            resolve();
          };
          const onEnd = () => {
            detach();
            controller.close();
            resolve();
          };
          const onError = (error: unknown) => {
            detach();
            controller.error(error);
            resolve();
          };
          // The client left before sending the whole body.
          const onClose = () => onError(new Error("The request body was not completely received."));
          req.on("data", onData);
          req.on("end", onEnd);
          req.on("error", onError);
          req.on("close", onClose);
          req.resume();
        });
      },
      cancel() {
        abandoned = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, abandoned: () => abandoned && !req.readableEnded };
}

// A webhook receiver as an application writes one: a real HTTP server on loopback that verifies every request with
// the standardwebhooks library and processes each webhook-id once.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type ReceivedDelivery = { id: string; timestamp: string; signature: string; body: string; payload: unknown };

export type Receiver = {
  url: string;
  /** Every verified request that was answered 2xx, in arrival order. */
  processed: ReceivedDelivery[];
  /** Every verified request, whatever the answer (retries included). */
  verified: ReceivedDelivery[];
  /** Requests refused, with the reason. */
  refused: { status: number; reason: string }[];
  close(): Promise<void>;
};

/** `answer(delivery, n)`: the status for the n-th verified request (1-based); 200 by default. */
export async function startWebhookReceiver(
  secret: string,
  options: { answer?: (delivery: ReceivedDelivery, n: number) => number; delayMs?: number } = {},
): Promise<Receiver> {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  const processed: ReceivedDelivery[] = [];
  const verified: ReceivedDelivery[] = [];
  const refused: { status: number; reason: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const refuse = (status: number, reason: string) => {
          refused.push({ status, reason });
          res.writeHead(status).end(reason);
        };
        let payload: unknown;
        try {
          payload = webhook.verify(body, headersOf(req.headers));
        } catch (error) {
          return refuse(400, (error as Error).message);
        }
        const delivery = {
          id: String(req.headers["webhook-id"]),
          timestamp: String(req.headers["webhook-timestamp"]),
          signature: String(req.headers["webhook-signature"]),
          body,
          payload,
        };
        if (seen.has(delivery.id)) return refuse(409, "replayed webhook-id");
        verified.push(delivery);
        if (options.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        const status = options.answer?.(delivery, verified.length) ?? 200;
        if (status >= 200 && status < 300) {
          seen.add(delivery.id);
          processed.push(delivery);
        }
        res.writeHead(status).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/approvals`,
    processed,
    verified,
    refused,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function headersOf(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (typeof value === "string") out[key] = value;
  return out;
}

/** A fresh Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
}

// A server process: the capability router over the shared Postgres stores on a loopback port.
// Run as `node --conditions=@orpc-agent/source --import tsx server.ts`; configured by environment:
//   ORPC_TEST_SCHEMA     the test file's schema (required)
//   CLOCK_OFFSET_MS      shifts this process's clock (journal, service, runtime, coordinator)
//   HANG_BEFORE_EFFECT   an order id whose refund handler prints "ENTERED <id>" and never returns
//   HANG_AFTER_EFFECT    an order id whose refund handler records its effect, prints "EFFECT <id>" and never returns
// Prints "READY <port>" once listening. Requests authenticate with x-actor, x-roles and x-session headers.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { RPCHandler } from "@orpc/server/node";
import { createCapabilityRouter } from "@orpc-agent/core/server";
import { openApp, type AppContext } from "./app.js";

type RequestContext = { headers: Record<string, string | string[] | undefined> };

const schema = process.env.ORPC_TEST_SCHEMA;
if (schema === undefined) throw new Error("ORPC_TEST_SCHEMA is required");
const app = openApp({
  schema,
  clockOffsetMs: Number(process.env.CLOCK_OFFSET_MS ?? 0),
  hang: { beforeEffect: process.env.HANG_BEFORE_EFFECT, afterEffect: process.env.HANG_AFTER_EFFECT },
});

const header = (context: RequestContext, name: string) => {
  const value = context.headers[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
};

const agent = createCapabilityRouter<RequestContext, AppContext>({
  service: app.service,
  // One runtime per request, so draining it drains exactly this request's audit events (docs/architecture/spec/distributed.md#distributed-7).
  runtime: () => app.makeRuntime(),
  surface: "aiSdk",
  async resolve({ context }) {
    const id = header(context, "x-actor");
    if (id === undefined) return null;
    const roles = header(context, "x-roles")?.split(",") ?? [];
    const session = header(context, "x-session") ?? "none";
    // Fresh attributes: whatever this process resolves now, never what the original request carried.
    return { actor: { id, kind: "user", attributes: { roles, session } }, context: { tenant: "t1" } };
  },
  authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
  drainAudit: { timeoutMs: 5_000 },
});

const handler = new RPCHandler({ agent });
const server = createServer((req, res) => {
  void handler.handle(req, res, { prefix: "/rpc", context: { headers: req.headers } }).then(({ matched }) => {
    if (!matched) {
      res.statusCode = 404;
      res.end();
    }
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
});

process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void app.close().then(() => process.exit(0)));
});

import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHTTPCapabilityClient } from "../../src/http/index.js";
import { newInvocationId } from "../server/remote-fixture.js";

// A server that forges `approvedWithChanges` (docs/guides/approvals.md#approve-with-changes): the HTTP client refuses
// the answer as unreadable, as it refuses any other field this protocol does not allow, on invoke, resume and reconcile.
let body: (invocationId: string) => unknown = () => ({});
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => answer(res, JSON.parse(raw || "{}") as { json?: { invocationId?: string } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function answer(res: ServerResponse, request: { json?: { invocationId?: string } }) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ json: body(request.json?.invocationId ?? "") }));
}

const completed = (invocationId: string, approvedWithChanges: unknown) => ({
  protocol: 1,
  status: "completed",
  invocationId,
  executionId: "exe_1",
  replayed: false,
  output: { refunded: 80 },
  approvedWithChanges,
});

const FORGED: Record<string, unknown> = {
  "values beside the pointers": { changed: ["/amount"], before: { amount: 320 } },
  "a value instead of a pointer": { changed: ["amount=80"] },
  "not an array": { changed: "/amount" },
  "no changed": {},
  "not an object": "/amount",
  null: null,
};

describe("the HTTP client refuses a forged approvedWithChanges", () => {
  const client = () => createHTTPCapabilityClient({ url });

  it("a well-formed one on a completed answer passes through as sent", async () => {
    body = (id) => completed(id, { changed: ["/amount"] });
    const invocationId = newInvocationId();
    expect(await client().resume({ invocationId, approvalId: "apr_1" })).toEqual(completed(invocationId, { changed: ["/amount"] }));
  });

  it("a malformed one makes invoke and resume outcome-unknown (unreadable-response), never a completed answer", async () => {
    for (const [name, forged] of Object.entries(FORGED)) {
      body = (id) => completed(id, forged);
      const invocationId = newInvocationId();
      expect(await client().resume({ invocationId, approvalId: "apr_1" }), name).toMatchObject({ status: "outcome-unknown", reason: "unreadable-response", invocationId });
      expect(await client().invoke({ capabilityId: "orders.refund", input: {}, invocationId }), name).toMatchObject({ status: "outcome-unknown", reason: "unreadable-response" });
    }
  });

  it("one on an answer that is not completed is refused too", async () => {
    body = (id) => ({ protocol: 1, status: "failed", invocationId: id, executionId: "exe_1", replayed: false, error: { code: "POLICY_DENIED", message: "No.", retryable: false }, approvedWithChanges: { changed: ["/amount"] } });
    const invocationId = newInvocationId();
    expect(await client().resume({ invocationId, approvalId: "apr_1" })).toMatchObject({ status: "outcome-unknown", reason: "unreadable-response" });
  });

  it("a reconcile whose settled result forges it is a PROTOCOL failure", async () => {
    body = (id) => ({ protocol: 1, invocationId: id, state: "settled", result: completed(id, FORGED["values beside the pointers"]) });
    await expect(client().reconcile({ invocationId: newInvocationId() })).rejects.toMatchObject({ name: "CapabilityClientError", code: "PROTOCOL" });
    body = (id) => ({ protocol: 1, invocationId: id, state: "settled", result: completed(id, { changed: ["/amount"] }) });
    const invocationId = newInvocationId();
    expect(await client().reconcile({ invocationId })).toMatchObject({ state: "settled", result: { approvedWithChanges: { changed: ["/amount"] } } });
  });
});

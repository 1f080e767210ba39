// One endpoint, both eras: the v2 SDK Client (2026-07-28) and the v1 SDK Client (2025-11-25) against the same
// createMCPHandler mounted with the SDK's Node adapter on loopback. Governance is the runtime's: the list per actor,
// calls through runtime.invoke on surface "mcp", the envelope as on v1, cancellation as an abort.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { ERAS, serveApp } from "../support/handler.js";

closeEverythingAfterEachTest();

type Result = { structuredContent?: unknown; isError?: boolean; content?: { type: string; text?: string }[] };

describe.each(ERAS)("$era", ({ connect }) => {
  it("lists per actor: each request's identity decides the catalog", async () => {
    const { url } = await serveApp(createTestApp());
    const danaTools = (await (await connect(url, "tok-dana")).listTools()).tools.map((tool) => tool.name);
    const adminTools = (await (await connect(url, "tok-admin")).listTools()).tools.map((tool) => tool.name);
    expect(danaTools).not.toContain("admin_purge");
    expect(adminTools).toContain("admin_purge");
    expect(danaTools).toContain("orders_get");
    expect(danaTools).not.toContain("notes_internal");
    expect(danaTools).not.toContain("notes_bound");
  });

  it("calls: ok, approval required, invalid input and a hidden tool, with the v1 envelope", async () => {
    const app = createTestApp();
    const { url } = await serveApp(app);
    const client = await connect(url, "tok-dana");
    const ok = (await client.callTool({ name: "notes_whoami", arguments: {} })) as Result;
    expect(ok.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
    expect(ok.isError).toBe(false);
    expect(JSON.parse(ok.content![0]!.text!)).toEqual(ok.structuredContent);

    const refund = (await client.callTool({ name: "orders_refund", arguments: { orderId: "o1", amount: 5 } })) as Result;
    expect(refund.structuredContent).toMatchObject({ status: "approval-required" });

    const invalid = (await client.callTool({ name: "notes_count", arguments: { n: "many" } })) as Result;
    expect(invalid.structuredContent).toMatchObject({ status: "error", error: { code: "INPUT_INVALID" } });
    expect(invalid.isError).toBe(true);

    const hidden = (await client.callTool({ name: "admin_purge", arguments: {} })) as Result;
    const unknown = (await client.callTool({ name: "no_such_tool", arguments: {} })) as Result;
    expect(hidden).toEqual(unknown);
    expect(hidden.structuredContent).toMatchObject({ status: "error", error: { code: "CAPABILITY_NOT_FOUND" } });

    const events = await app.auditEvents();
    const requested = events.filter((event) => event.type === "capability.requested");
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.every((event) => (event as { surface?: string }).surface === "mcp")).toBe(true);
    // The acting agent is the verified token's OAuth client, never anything in the arguments (SI-3).
    expect(requested.every((event) => event.actor?.via?.id === "c1")).toBe(true);
  });

  it("cancellation reaches the handler as an abort", async () => {
    const app = createTestApp();
    const { url } = await serveApp(app);
    const client = await connect(url, "tok-dana");
    const controller = new AbortController();
    const call = client.callTool({ name: "notes_slow", arguments: {} }, controller.signal);
    await app.interruptions.started("notes.slow");
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await app.interruptions.settled("notes.slow")).toEqual({ aborted: true });
  });
});

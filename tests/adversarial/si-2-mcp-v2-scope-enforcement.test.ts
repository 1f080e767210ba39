// SI-2 on the MCP v2 endpoint: per-tool scopes (`meta.adapters.mcp.scopes`) are authorization, so they hold at the
// call whatever discovery says. The attack: a token without the scope calls a scoped tool that discovery does not
// show (a discovery-only policy hides it, or a discovery policy throws) but invocation allows. The scope check must
// not let discovery decide whether it applies; and a batch mixing a free tool with a scoped one runs neither.
import { describe, expect, it } from "vitest";
import { allow, definePolicy, hide } from "@orpc-agent/core";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { callMessage, ERAS, headersFor, LEGACY_HEADERS, messagesOf, post, scopedApp, serveScoped } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const discoveryOnlyHide = definePolicy("listing-hides-export", () => hide(), { phases: ["discovery"], scope: { capabilities: { ids: ["reports.export"] } } });
const flakyDiscovery = definePolicy(
  "listing-lookup-fails",
  () => {
    throw new Error("directory unavailable");
  },
  { phases: ["discovery"], scope: { capabilities: { ids: ["reports.export"] } } },
);
const invocationAllows = definePolicy("invocation-allows", () => allow(), { phases: ["invocation"] });

describe.each(ERAS)("SI-2: a scoped tool never runs for a token without its scope (%s)", (era) => {
  it.each([
    ["hidden by a discovery-only policy", [discoveryOnlyHide, invocationAllows]],
    ["dropped from discovery by a throwing discovery policy", [flakyDiscovery, invocationAllows]],
  ])("SI-2: a scoped tool %s is not executed for a token lacking the scope", async (_label, policies) => {
    const app = scopedApp(policies);
    const { url } = await serveScoped(app);
    const response = await post(url, JSON.stringify(callMessage("reports_export", era)), headersFor("reports_export", era), "tok-dana");
    await response.text();
    expect(app.runs).toEqual([]);
  });

  it("SI-2: the same tool runs once the token holds the scope (discovery still hiding it)", async () => {
    const app = scopedApp([discoveryOnlyHide, invocationAllows]);
    const { url } = await serveScoped(app);
    const response = await post(url, JSON.stringify(callMessage("reports_export", era)), headersFor("reports_export", era), "tok-dana-scoped");
    const [message] = (await messagesOf(response)) as { result?: { structuredContent?: unknown } }[];
    expect(message?.result?.structuredContent).toEqual({ status: "ok", data: { exported: true } });
    expect(app.runs).toEqual(["reports.export"]);
  });
});

describe("SI-2: a 2025-era batch mixing a free tool with a scoped one", () => {
  it("SI-2: a batch whose second call needs a missing scope is refused whole: neither tool runs", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    const batch = [callMessage("cheap_ping", "legacy", 1), callMessage("reports_export", "legacy", 2)];
    const response = await post(url, JSON.stringify(batch), LEGACY_HEADERS, "tok-dana");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('scope="reports:export"');
    expect(app.runs).toEqual([]);
  });

  it("SI-2: the scoped call repeated under the same id, or named through a duplicate JSON key, is still checked", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    const duplicateKey = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"cheap_ping","arguments":{},"name":"reports_export"}}';
    const sameId = JSON.stringify([callMessage("cheap_ping", "legacy", 4), callMessage("reports_export", "legacy", 4)]);
    for (const body of [duplicateKey, sameId]) {
      const response = await post(url, body, LEGACY_HEADERS, "tok-dana");
      await response.text();
      expect(response.status).toBe(403);
    }
    expect(app.runs).toEqual([]);
  });
});

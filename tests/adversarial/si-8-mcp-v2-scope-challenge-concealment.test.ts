// SI-8 on the MCP v2 endpoint's per-tool scopes: a 403 insufficient_scope challenge names a tool, so it must never
// be what tells a caller that a tool it cannot see exists. A scoped tool hidden from the caller (by a policy on both
// phases, by a discovery-only policy, by a failing discovery policy, or addressed by its raw registry id) must answer
// a token lacking the scope byte for byte as an unknown name does, on both eras, alone or inside a batch.
import { describe, expect, it } from "vitest";
import { allow, definePolicy, hide } from "@orpc-agent/core";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { callMessage, ERAS, headersFor, LEGACY_HEADERS, post, scopedApp, serveScoped, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const vault = { capabilities: { ids: ["vault.open"] } };
const HIDINGS = [
  ["hidden on both phases", [definePolicy("vault-hidden", () => hide(), { phases: ["discovery", "invocation"], scope: vault })]],
  [
    "hidden at discovery only",
    [definePolicy("vault-unlisted", () => hide(), { phases: ["discovery"], scope: vault }), definePolicy("vault-callable", () => allow(), { phases: ["invocation"], scope: vault })],
  ],
  [
    "dropped by a throwing discovery policy",
    [
      definePolicy(
        "vault-lookup",
        () => {
          throw new Error("directory unavailable");
        },
        { phases: ["discovery"], scope: vault },
      ),
    ],
  ],
] as const;

async function answer(url: URL, body: unknown, headers: Record<string, string>, token: string) {
  const response = await post(url, JSON.stringify(body), headers, token);
  return { status: response.status, type: response.headers.get("content-type"), challenge: response.headers.get("www-authenticate"), text: await response.text() };
}

const single = (url: URL, name: string, era: Era) => answer(url, callMessage(name, era), headersFor(name, era), "tok-dana");

describe.each(ERAS)("SI-8: a scoped tool the caller cannot see answers a scope-less token as an unknown one (%s)", (era) => {
  it.each(HIDINGS)("SI-8: a scoped tool %s is byte-identical to an unknown tool on tools/call", async (_label, policies) => {
    const app = scopedApp([...policies]);
    const { url } = await serveScoped(app);
    const hidden = await single(url, "vault_open", era);
    const unknown = await single(url, "no_such_tool", era);
    expect(hidden.status).toBe(200);
    expect(hidden).toEqual(unknown);
    expect(hidden.text).toContain("CAPABILITY_NOT_FOUND");
    expect(app.runs).toEqual([]);
  });

  it("SI-8: a scoped tool addressed by its raw registry id is byte-identical to an unknown tool", async () => {
    const app = scopedApp();
    const { url } = await serveScoped(app);
    expect(await single(url, "vault.open", era)).toEqual(await single(url, "no_such_tool", era));
    expect(app.runs).toEqual([]);
  });
});

describe("SI-8: 2025-era batches and the 403 challenge", () => {
  const hiddenVault = [definePolicy("vault-hidden", () => hide(), { phases: ["discovery", "invocation"], scope: vault })];

  it("SI-8: a batch carrying a hidden scoped tool answers exactly as one carrying an unknown tool", async () => {
    const app = scopedApp(hiddenVault);
    const { url } = await serveScoped(app);
    const withHidden = await answer(url, [callMessage("cheap_ping", "legacy", 1), callMessage("vault_open", "legacy", 2)], LEGACY_HEADERS, "tok-dana");
    const withUnknown = await answer(url, [callMessage("cheap_ping", "legacy", 1), callMessage("no_such_tool", "legacy", 2)], LEGACY_HEADERS, "tok-dana");
    expect(withHidden).toEqual(withUnknown);
    expect(app.runs).toEqual(["cheap.ping", "cheap.ping"]);
  });

  it("SI-8: the 403 for a visible scoped tool is the same whether the batch also names a hidden tool or an unknown one", async () => {
    const app = scopedApp(hiddenVault);
    const { url } = await serveScoped(app);
    const withHidden = await answer(url, [callMessage("vault_open", "legacy", 1), callMessage("reports_export", "legacy", 2)], LEGACY_HEADERS, "tok-dana");
    const withUnknown = await answer(url, [callMessage("no_such_tool", "legacy", 1), callMessage("reports_export", "legacy", 2)], LEGACY_HEADERS, "tok-dana");
    expect(withHidden.status).toBe(403);
    expect(withHidden).toEqual(withUnknown);
    expect(withHidden.challenge).not.toContain("vault");
    expect(app.runs).toEqual([]);
  });
});

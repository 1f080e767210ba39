// SI-2 on the MCP v2 endpoint: the opt-in resume tool executes an approved operation, so it must not be a side door
// around the operation's per-tool scopes. The attack: the requester asks with a token holding `reports:export`, a
// manager approves, and the requester resumes with a token that lacks it (a down-scoped token, another client).
import { describe, expect, it } from "vitest";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance } from "@orpc-agent/core";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { callMessage, ERAS, headersFor, messagesOf, post, serveScoped, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

function approvalApp() {
  const runs: string[] = [];
  const registry = createCapabilityRegistry({
    reports: {
      export: ap
        .meta(
          // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
          agentMeta({
            description: "Export the reports.",
            expose: { mcp: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true },
            adapters: { mcp: { scopes: ["reports:export"] } },
          } as never),
        )
        .handler(() => (runs.push("reports.export"), { exported: true })),
    },
  });
  const runtime = createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry }), approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: () => {} });
  return { runtime, runs };
}

const resumeMessage = (approvalId: string, era: Era) => {
  const message = callMessage("approvals_resume", era, 9);
  return { ...message, params: { ...message.params, arguments: { approvalId } } };
};

type Answer = { result?: { structuredContent?: { status?: string; approvalId?: string } } };

describe.each(ERAS)("SI-2: the resume tool honours the approved operation's scopes (%s)", (era) => {
  it("SI-2: resuming an approved scoped operation with a token lacking its scope does not run it; with the scope it runs once", async () => {
    const app = approvalApp();
    const { url } = await serveScoped(app, { approvals: { resumeTool: true } });
    const asked = (await messagesOf(await post(url, JSON.stringify(callMessage("reports_export", era)), headersFor("reports_export", era), "tok-dana-scoped"))) as Answer[];
    const approvalId = asked[0]?.result?.structuredContent?.approvalId;
    expect(typeof approvalId).toBe("string");
    await app.runtime.approvals.decide(approvalId!, { status: "approved", approver: { id: "u_priya", kind: "user" } });

    const downScoped = await post(url, JSON.stringify(resumeMessage(approvalId!, era)), headersFor("approvals_resume", era), "tok-dana");
    await downScoped.text();
    expect(app.runs).toEqual([]);
    expect(downScoped.status).toBe(403);
    expect(downScoped.headers.get("www-authenticate")).toContain('scope="reports:export"');

    const scoped = (await messagesOf(await post(url, JSON.stringify(resumeMessage(approvalId!, era)), headersFor("approvals_resume", era), "tok-dana-scoped"))) as Answer[];
    expect(scoped[0]?.result?.structuredContent).toEqual({ status: "ok", data: { exported: true } });
    expect(app.runs).toEqual(["reports.export"]);
  });

  it("SI-2: another principal resuming the approval learns nothing from the scope check: the answer equals an unknown approval id's", async () => {
    const app = approvalApp();
    const { url } = await serveScoped(app, { approvals: { resumeTool: true } });
    const asked = (await messagesOf(await post(url, JSON.stringify(callMessage("reports_export", era)), headersFor("reports_export", era), "tok-dana-scoped"))) as Answer[];
    const approvalId = asked[0]?.result?.structuredContent?.approvalId;
    await app.runtime.approvals.decide(approvalId!, { status: "approved", approver: { id: "u_priya", kind: "user" } });
    const read = async (id: string) => {
      const response = await post(url, JSON.stringify(resumeMessage(id, era)), headersFor("approvals_resume", era), "tok-mallory");
      return { status: response.status, text: await response.text() };
    };
    expect(await read(approvalId!)).toEqual(await read("apr_no_such_approval"));
    expect(app.runs).toEqual([]);
  });
});

// SI-13 over MCP: a conversation-scoped grant covers an MCP call only when the application's `createContext` names
// that conversation for that principal. The client never picks the id: here the app derives it from the verified
// token, so a real v2 SDK client over loopback HTTP can only be in the conversation its credential puts it in.
import { createMCPHandler, type MCPHandlerOptions } from "@orpc-agent/mcp";
import { describe, expect, it } from "vitest";
import { connectModern, listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { dana, mo } from "./support/runtime.js";
import { grant, grantRuntime, priya, refunds } from "./support/grants.js";

const input = { customerId: "c_ada", amount: 10 };

/** `tok-<user>-<conversation>` is `<user>` in `<conversation>`; `tok-<user>` is `<user>` with no conversation. */
function conversationApp() {
  const cap = refunds({ expose: { mcp: true } });
  const { runtime } = grantRuntime({ refund: cap.procedure });
  const serve = () =>
    listenModern((url) =>
      createMCPHandler(runtime, {
        resource: url,
        verifyToken: (token) => (/^tok-[a-z]+(-[A-Za-z]+)?$/.test(token) ? { token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, resource: url } : null),
        createContext: ({ authInfo }) => {
          const [, user, conversation] = /^tok-([a-z]+)(?:-([A-Za-z]+))?$/.exec(authInfo?.token ?? "") ?? [];
          const actor = user === "dana" ? dana : user === "mo" ? mo : undefined;
          if (actor === undefined) return null;
          return { actor, context: {}, ...(conversation === undefined ? {} : { conversationId: `chat_${conversation}` }) };
        },
      } as MCPHandlerOptions<unknown>),
    );
  return { runtime, cap, serve };
}

async function call(url: URL, token: string) {
  const client = await connectModern(url, token);
  const result = (await client.callTool({ name: "refund", arguments: input })) as { structuredContent?: { status?: string } };
  return result.structuredContent?.status;
}

describe("standing grants over MCP (SI-13)", () => {
  it("SI-13: a conversation grant for A covers an MCP call whose createContext supplies A, not B, not none, not another principal in A", async () => {
    const { runtime, cap, serve } = conversationApp();
    // Over HTTP the principal's acting agent is the token's OAuth client (`via: c1`), so the grant names it too.
    await runtime.grants.issue({ capabilityId: "refund", actor: { ...dana, via: { id: "c1" } }, surface: "mcp", conversationId: "chat_A", issuers: [priya], grant: grant({ scope: "conversation", uses: 5 }) });
    const { url } = await serve();

    expect(await call(url, "tok-dana-B")).toBe("approval-required");
    expect(await call(url, "tok-dana")).toBe("approval-required");
    expect(await call(url, "tok-mo-A")).toBe("approval-required");
    expect(cap.ran).toHaveLength(0);

    expect(await call(url, "tok-dana-A")).toBe("ok");
    expect(cap.ran).toEqual([input]);
    const [used] = await runtime.grants.list({ actor: { ...dana, via: { id: "c1" } }, capabilityId: "refund" });
    expect(used!.usesLeft).toBe(4);
  });

  it("SI-13: an approval requested over MCP keeps createContext's conversation, so a grant decided with it binds that conversation", async () => {
    const { runtime, cap, serve } = conversationApp();
    const { url } = await serve();
    expect(await call(url, "tok-dana-A")).toBe("approval-required");
    const [pending] = await runtime.approvals.list!({ status: "pending" });
    expect(pending!.conversationId).toBe("chat_A");
    const { grant: issued } = await runtime.approvals.decide(pending!.id, { status: "approved", approver: priya, grant: grant({ scope: "conversation" }) });
    expect(issued).toMatchObject({ scope: "conversation", conversationId: "chat_A", surface: "mcp" });

    expect(await call(url, "tok-dana-B")).toBe("approval-required");
    expect(await call(url, "tok-dana-A")).toBe("ok");
    expect(cap.ran).toHaveLength(1);
  });

  it("SI-13: a createContext answer with a malformed conversationId refuses the request, so no grant is judged against it", async () => {
    const cap = refunds({ expose: { mcp: true } });
    const { runtime } = grantRuntime({ refund: cap.procedure });
    for (const conversationId of ["", 42, { toString: () => "chat_A" }]) {
      const { url } = await listenModern((url) =>
        createMCPHandler(runtime, {
          resource: url,
          verifyToken: (token) => ({ token, clientId: "c1", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, resource: url }),
          createContext: () => ({ actor: dana, context: {}, conversationId }) as never,
        } as MCPHandlerOptions<unknown>),
      );
      await expect(call(url, "tok-dana")).rejects.toThrow();
    }
    expect(cap.ran).toHaveLength(0);
  });
});

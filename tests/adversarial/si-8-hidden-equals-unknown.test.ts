// SI-8: for an actor to whom a capability is hidden, every answer equals an unknown id's (issue 22, finding 4).
import { definePolicy, hide, allow, type ExecutionResult } from "@orpc-agent/core";
import { toModelError } from "../../packages/core/src/errors/capability-error.js";
import {
  createCapabilityRouter,
  createInMemoryInvocationJournal,
  createInProcessCapabilityClient,
  createInvocationService,
} from "@orpc-agent/core/server";
import { createMCPHttpHandler } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectHttp, listen } from "../../packages/mcp/test/support/http.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { base, build, dana, meta, mo } from "./support/runtime.js";
import { captureStartupWarnings } from "./support/startup-warnings.js";

// Writes a hide policy may gate, with no coordinator configured: W2, captured and asserted.
captureStartupWarnings(["W2"]);

// Hidden from dana at discovery and at invocation, the way an application hides an admin tool.
const hideFromDana = definePolicy("hide-from-dana", (req) => (req.actor.id === "dana" ? hide() : allow()), { phases: ["discovery", "invocation"] });

function app() {
  let ran = 0;
  const purge = base
    .meta({ agent: meta({ expose: { direct: true, aiSdk: true, mcp: true } }) })
    .input(z.object({ ssn_hash: z.string(), internal_ledger_id: z.number() }))
    .handler(() => {
      ran++;
      return "purged";
    });
  const { runtime, events } = build({ defs: { admin: { purge } }, policies: [hideFromDana] });
  return { runtime, events, ran: () => ran };
}

// The envelope without its random execution id: everything a caller can compare.
function answer(result: ExecutionResult) {
  if (result.status !== "failed") return { status: result.status };
  const { code, stage, publicMessage, retryable, exposeToModel, details } = result.error;
  return { status: result.status, code, stage, publicMessage, retryable, exposeToModel, details, model: toModelError(result.error), keys: Object.keys(result) };
}

const invalid = { ssn_hash: 1 };
const valid = { ssn_hash: "x", internal_ledger_id: 1 };

describe("SI-8: hidden equals unknown at the runtime", () => {
  it("SI-8: invalid input on a hidden capability answers CAPABILITY_NOT_FOUND, without field paths", async () => {
    const { runtime } = app();
    const unknown = answer(await runtime.invoke("admin.nope", invalid, { actor: dana, context: {} }));
    expect(unknown.code).toBe("CAPABILITY_NOT_FOUND");
    expect(answer(await runtime.invoke("admin.purge", invalid, { actor: dana, context: {} }))).toEqual(unknown);
    expect(answer(await runtime.invoke("admin.purge", valid, { actor: dana, context: {} }))).toEqual(unknown);
    // Someone who may see it still gets the field paths.
    expect(answer(await runtime.invoke("admin.purge", invalid, { actor: mo, context: {} })).code).toBe("INPUT_INVALID");
  });

  it("SI-8: a missing or malformed actor answers as for an unknown id, with valid or invalid input", async () => {
    const { runtime, ran } = app();
    for (const actor of [undefined, null, { id: "", kind: "user" }]) {
      for (const input of [valid, invalid]) {
        const hidden = answer(await runtime.invoke("admin.purge", input, { actor: actor as never, context: {} }));
        const unknown = answer(await runtime.invoke("admin.nope", input, { actor: actor as never, context: {} }));
        expect(hidden).toEqual(unknown);
      }
    }
    expect(ran()).toBe(0);
  });

  it("SI-8: the audit names the true reason, carries no issue paths and no input hash for the concealed answer", async () => {
    const { runtime, events } = app();
    await runtime.invoke("admin.purge", invalid, { actor: dana, context: {} });
    const denied = events.filter((e) => e.type === "capability.denied");
    expect(denied.map((e) => (e.data as { reason: string }).reason)).toEqual(["hidden"]);
    expect(events.some((e) => e.type === "capability.failed")).toBe(false);
    expect(JSON.stringify(events)).not.toContain("ssn_hash");
  });

  it("SI-8: a capability without discovery policies keeps stage order 5 then 6 (INPUT_INVALID before UNAUTHENTICATED)", async () => {
    const open = base.meta({ agent: meta() }).input(z.object({ n: z.number() })).handler(() => "ok");
    const { runtime } = build({ defs: { open } });
    expect(answer(await runtime.invoke("open", {}, { actor: undefined as never, context: {} })).code).toBe("INPUT_INVALID");
    expect(answer(await runtime.invoke("open", { n: 1 }, { actor: undefined as never, context: {} })).code).toBe("UNAUTHENTICATED");
  });
});

describe("SI-8: input that cannot be snapshotted (found by attacking the fix)", () => {
  it("SI-8: input nested past the stack on a hidden capability answers as an unknown id, not INTERNAL_ERROR or INPUT_INVALID", async () => {
    const blob = base
      .meta({ agent: meta({ expose: { direct: true, mcp: true } }) })
      .input(z.object({ data: z.unknown() }))
      .handler(() => "stored");
    const { runtime } = build({ defs: { admin: { blob } }, policies: [hideFromDana] });
    const deep = JSON.parse(`{"data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const unknown = answer(await runtime.invoke("admin.nope", deep, { actor: dana, context: {} }));
    expect(unknown.code).toBe("CAPABILITY_NOT_FOUND");
    expect(answer(await runtime.invoke("admin.blob", deep, { actor: dana, context: {} }))).toEqual(unknown);
    // Someone who may see it gets a typed refusal (issue 43, finding 4), never an execution of an unbound value.
    expect(answer(await runtime.invoke("admin.blob", deep, { actor: mo, context: {} })).code).toBe("INPUT_INVALID");
  });
});

describe("SI-8: hidden equals unknown over MCP (real loopback HTTP, the SDK's client)", () => {
  closeEverythingAfterEachTest();

  it("SI-8: tools/call on a hidden tool is byte-identical to an unknown tool, for invalid and valid arguments", async () => {
    const { runtime } = app();
    const handler = createMCPHttpHandler(runtime, {
      verifyToken: (token: string) => (token === "dana" ? { token, clientId: "c", scopes: [] } : null),
      createContext: () => ({ actor: dana, context: {} }),
    } as never);
    const { url } = await listen(handler);
    const { client } = await connectHttp(url, "dana");
    const unknown = JSON.stringify(await client.callTool({ name: "admin_nope", arguments: invalid }));
    expect(unknown).toContain("CAPABILITY_NOT_FOUND");
    expect(JSON.stringify(await client.callTool({ name: "admin_purge", arguments: invalid }))).toBe(unknown);
    expect(JSON.stringify(await client.callTool({ name: "admin_purge", arguments: valid }))).toBe(unknown);
  });
});

describe("SI-8: hidden equals unknown over the remote router", () => {
  afterEach(() => vi.restoreAllMocks());

  function remote() {
    const { runtime } = app();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "adv", revision: "r1" });
    const router = createCapabilityRouter({
      service,
      runtime: () => runtime,
      surface: "aiSdk",
      resolve: async () => ({ actor: dana, context: {} }),
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    });
    return createInProcessCapabilityClient(router, { context: {} });
  }
  let n = 0;
  const id = () => `inv-${Date.now()}-${n++}`;
  const shape = (r: Record<string, unknown>) => ({ ...r, invocationId: "-", executionId: typeof r.executionId === "string" && r.executionId.startsWith("exe_") ? "exe_" : r.executionId });

  it("SI-8: a stale expectedDigest, invalid input and valid input on a hidden capability answer as an unknown id", async () => {
    const client = remote();
    for (const request of [{ input: invalid }, { input: valid }, { input: valid, expectedDigest: "stale" }, { input: invalid, expectedDigest: "stale" }]) {
      const unknown = shape(await client.invoke({ capabilityId: "admin.nope", invocationId: id(), ...request }));
      const hidden = shape(await client.invoke({ capabilityId: "admin.purge", invocationId: id(), ...request }));
      expect((unknown as { error?: { code: string } }).error?.code).toBe("CAPABILITY_NOT_FOUND");
      expect(hidden).toEqual(unknown);
    }
  });
});

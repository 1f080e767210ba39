// The adapter conformance suite (docs/architecture/spec/adapters.md#adapters-5-1): one feature script, C1..C22, fed to every harness, so the
// equivalence of adapters is executed rather than assumed. The suite never builds a runtime: per test it hands
// a fresh fixture to the package's harness factory, which builds whatever its surface needs from it.
import { describe, expect, it } from "vitest";
import {
  createAgentRuntime,
  createInMemoryApprovalCoordinator,
  defaultToolName,
  type Actor,
  type AgentAuditEvent,
  type AgentCapability,
  type AgentGovernance,
  type ApprovalCoordinator,
  type ApprovalDecision,
  type AuditSink,
  type CapabilityDescriptor,
  type CapabilityRegistry,
  type DescribeScope,
  type ExecutionResult,
  type ExposureSurface,
} from "@orpc-agent/core";
// The subpath by file: tsconfig `paths` cannot map a directory entry under NodeNext, and this is the very file the
// vitest alias of "@orpc-agent/core/schema" points to, so converter state stays one module instance (docs/architecture/spec/core.md#core-13).
import { toJsonSchema } from "../packages/core/src/schema/index.js";
import { buildFixtureGovernance, signalObservations, u_dana, u_mallory, u_priya } from "./registry.js";

export type AdapterEnvelope =
  | { status: "ok"; data: unknown }
  | { status: "approval-required"; approvalId: string; message: string; expiresAt?: string; url?: string; invocationId?: string }
  | { status: "error"; error: { code: string; message: string; retryable: boolean; details?: unknown } }
  | { status: "outcome-unknown"; invocationId: string; message: string };

/** Built by the suite, fresh per test. */
export type ConformanceFixture = {
  /** `buildFixtureGovernance()`. */
  governance: AgentGovernance;
  /** Install as `approvals.coordinator` of every runtime the harness builds. */
  approvals: ApprovalCoordinator;
  /** Install as a sink of every runtime the harness builds (server side, inside steps). */
  audit: AuditSink & { events(): AgentAuditEvent[] };
};

/** `native`: the AI SDK `Tool`, or the descriptor on identity harnesses. */
export type HarnessTool = { name: string; description: string; inputSchema: unknown; native?: unknown };

export type ConformanceHarness = {
  surface: ExposureSurface;
  /** `identity`: the tool name is the capability id (direct, testing, workflow). */
  naming: "mapped" | "identity";
  /** Whether `listTools` honours `scope`. */
  scopes: boolean;
  listTools(actor: Actor, o?: { scope?: DescribeScope }): Promise<HarnessTool[]>;
  callTool(actor: Actor, toolName: string, rawArgs: unknown, o?: { signal?: AbortSignal }): Promise<AdapterEnvelope>;
  /** Through `runtime.approvals.decide` of a runtime built on the fixture, never the coordinator directly. */
  decide(approvalId: string, decision: ApprovalDecision): Promise<void>;
  /** `null`: the surface resumes differently; the checks using it must then be declared not applicable. */
  resume: ((actor: Actor, approvalId: string) => Promise<AdapterEnvelope>) | null;
  /** `fixture.audit.events()`, after any draining the harness needs. */
  auditEvents(): Promise<AgentAuditEvent[]>;
  /** Mapped harnesses only: builds with `collidingToolNaming` and must reject. */
  buildWithCollidingNaming?(): Promise<unknown>;
};

export type ConformanceCheck = `C${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22}`;

/**
 * How a harness departs from a local adapter, stated once by the package that runs the suite (docs/architecture/spec/adapters.md#adapters-5:
 * "harnesses differ only in declared dimensions").
 */
export type ConformanceOptions = {
  /**
   * `"journaled"` for remote and workflow harnesses (docs/architecture/spec/distributed.md#distributed-4, docs/architecture/spec/distributed.md#distributed-9-2): an abort after dispatch reports
   * `outcome-unknown`, and a repeated resume replays the stored envelope instead of `APPROVAL_CONSUMED`.
   * Default `"local"`.
   */
  delivery?: "local" | "journaled";
  /**
   * Checks that cannot map to this harness, with the reason. Nothing is skipped: a check may be declared not
   * applicable only where the suite states what must hold instead, and that is what runs (today only C11: the
   * abort settles the call while the running handler never sees it). Declaring any other check throws.
   */
  notApplicable?: Partial<Record<ConformanceCheck, string>>;
};

/** The checks whose not-applicable form states what must hold instead (see `ConformanceOptions.notApplicable`). */
const WITH_ALTERNATIVE: ReadonlySet<ConformanceCheck> = new Set<ConformanceCheck>(["C11"]);

/** Every id maps to one name, so any build given it must reject with a collision. */
export const collidingToolNaming = (_capabilityId: string): string => "colliding_tool";

/** The serialized concealed envelope: unknown, unexposed and hidden all look exactly like this (SI-8). */
const CONCEALED = '{"status":"error","error":{"code":"CAPABILITY_NOT_FOUND","message":"Capability not found.","retryable":false}}';

/** The synthetic resume tool the mcp harness enables (its resume path, docs/architecture/spec/adapters.md#adapters-3-7), listed last (docs/architecture/spec/adapters.md#adapters-3-4). */
const MCP_RESUME_TOOL = "approvals_resume";

/** Fixture capabilities u_dana never discovers: hidden by policy, or whose discovery policy throws (SI-7). */
const UNDISCOVERABLE_FOR_DANA = new Set(["fixtures.hidden", "fixtures.brokenDiscovery"]);

const MAPPED_SURFACES: readonly ExposureSurface[] = ["aiSdk", "mcp"];

/**
 * The deterministic docs/architecture/spec/adapters.md#adapters-1-5 translation of a runtime result, for harnesses without a protocol of their own.
 *
 * @example
 * referenceEnvelope(await runtime.invoke("fixtures.echo", { text: "hi" }, { actor, context: {} }));
 * // { status: "ok", data: { echoed: "hi" } }
 */
export function referenceEnvelope(result: ExecutionResult): AdapterEnvelope {
  switch (result.status) {
    case "completed":
      return { status: "ok", data: result.output };
    case "approval-required":
      return { status: "approval-required", approvalId: result.approval.id, message: approvalMessage(result.approval.reasons) };
    default:
      // CapabilityError#toJSON is the model serialization: concealed or { code, message, retryable, details? }.
      return { status: "error", error: result.error.toJSON() };
  }
}

/** `"Awaiting approval: " + reasons.join("; ") + "."`, one trailing `.` dropped from each reason first (docs/architecture/spec/adapters.md#adapters-1-5). */
function approvalMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "Awaiting approval.";
  return `Awaiting approval: ${reasons.map((reason) => (reason.endsWith(".") ? reason.slice(0, -1) : reason)).join("; ")}.`;
}

/** The names `listTools(u_dana)` returns on a surface, in registry order (C1). */
export function expectedToolNames(surface: ExposureSurface): string[] {
  const { registry } = buildFixtureGovernance();
  const names = registry
    .capabilities()
    .filter((capability) => capability.meta.expose[surface] === true && !UNDISCOVERABLE_FOR_DANA.has(capability.id))
    .map((capability) => wireName(capability, surface, MAPPED_SURFACES.includes(surface) ? "mapped" : "identity"));
  if (surface === "mcp") names.push(MCP_RESUME_TOOL);
  return names;
}

/** docs/architecture/spec/adapters.md#adapters-1-4 without a `toolNaming` function: meta name, else the default name; ids on identity harnesses. */
function wireName(capability: AgentCapability, surface: ExposureSurface, naming: ConformanceHarness["naming"]): string {
  if (naming === "identity") return capability.id;
  const adapters = capability.meta.adapters as Partial<Record<ExposureSurface, { toolName?: string }>> | undefined;
  return adapters?.[surface]?.toolName ?? defaultToolName(capability.id);
}

type Names = {
  /** The name a harness addresses a fixture id by. */
  of(id: string): string;
  /** The fixture id behind a listed name, `undefined` for synthetic tools. */
  idOf(name: string): string | undefined;
};

function namesFor(harness: ConformanceHarness, registry: CapabilityRegistry): Names {
  const exposed = registry.capabilities().filter((c) => c.meta.expose[harness.surface] === true);
  return {
    of: (id) => wireName(registry.get(id) ?? failMissing(id), harness.surface, harness.naming),
    idOf: (name) => exposed.find((c) => wireName(c, harness.surface, harness.naming) === name)?.id,
  };
}

function failMissing(id: string): never {
  throw new Error(`conformance: "${id}" is not a fixture capability`);
}

function createFixture(): ConformanceFixture {
  signalObservations.clear();
  const captured: AgentAuditEvent[] = [];
  const sink: AuditSink = (event) => {
    captured.push(event);
  };
  return {
    governance: buildFixtureGovernance(),
    approvals: createInMemoryApprovalCoordinator(),
    audit: Object.assign(sink, { events: () => [...captured] }),
  };
}

function errorEnvelope(code: string, message: string, retryable: boolean): AdapterEnvelope {
  return { status: "error", error: { code, message, retryable } };
}

/** Identical calls may differ only in these instance identifiers (C19). */
function normalized(envelope: AdapterEnvelope): string {
  return JSON.stringify(envelope, (key, value) => (key === "approvalId" || key === "invocationId" || key === "expiresAt" ? "<instance>" : value));
}

function eventsOf(events: AgentAuditEvent[], capabilityId: string): AgentAuditEvent[] {
  return events.filter((event) => event.capabilityId === capabilityId);
}

/**
 * Registers C1..C22 for one harness (docs/architecture/spec/adapters.md#adapters-5-1). `createHarness` receives a fresh fixture per test and
 * builds its surface from it: the fixture's governance, its coordinator as `approvals.coordinator` and its audit
 * sink on every runtime.
 *
 * @example
 * describeAdapterConformance("direct", async (fixture) => directHarness(fixture));
 */
export function describeAdapterConformance(
  name: string,
  createHarness: (fixture: ConformanceFixture) => Promise<ConformanceHarness>,
  options: ConformanceOptions = {},
): void {
  const journaled = options.delivery === "journaled";
  for (const id of Object.keys(options.notApplicable ?? {})) {
    if (!WITH_ALTERNATIVE.has(id as ConformanceCheck)) {
      throw new Error(`conformance: ${name} declares ${id} not applicable, but ${id} has no stated alternative and must pass.`);
    }
  }

  async function setup() {
    const fixture = createFixture();
    const harness = await createHarness(fixture);
    return { fixture, harness, names: namesFor(harness, fixture.governance.registry), registry: fixture.governance.registry };
  }

  /** Registers a check, or, where the harness declared it not applicable, what must hold instead. */
  function check(id: ConformanceCheck, title: string, body: () => Promise<void>, instead?: { title: string; body: () => Promise<void> }): void {
    const reason = options.notApplicable?.[id];
    if (reason !== undefined && instead !== undefined) it(`${id}: not applicable to ${name} (${reason}); instead, ${instead.title}`, instead.body);
    else it(`${id}: ${title}`, body);
  }

  /** Starts a call, waits until its handler runs, aborts it, and returns the envelope. */
  async function abortAfterStart(harness: ConformanceHarness, names: Names, id: string) {
    const controller = new AbortController();
    const call = harness.callTool(u_dana, names.of(id), {}, { signal: controller.signal });
    const first = await Promise.race([
      signalObservations.started(id).then(() => "started" as const),
      call.then(
        () => "settled" as const,
        () => "settled" as const,
      ),
    ]);
    expect(first, `the ${id} handler must start before the call settles`).toBe("started");
    controller.abort();
    return call;
  }

  describe(`adapter conformance: ${name}`, () => {
    check("C1", "listTools(u_dana) names equal expectedToolNames(surface), in registry order", async () => {
      const { harness } = await setup();
      const tools = await harness.listTools(u_dana);
      expect(tools.map((tool) => tool.name)).toEqual(expectedToolNames(harness.surface));
    });

    check("C2", 'descriptions are verbatim; the gated one says it requires approval (mapped: " Requires approval." suffix; identity: requiresApproval on the descriptor)', async () => {
      const { harness, names, registry } = await setup();
      const tools = await harness.listTools(u_dana);
      const gated = tools.find((tool) => tool.name === names.of("fixtures.gated"));
      expect(gated, "fixtures.gated is listed").toBeDefined();
      for (const tool of tools) {
        const id = names.idOf(tool.name);
        if (id === undefined) continue; // synthetic tools (the mcp resume tool) carry their own description
        const { description, approval } = registry.get(id)!.meta;
        if (harness.naming === "mapped") {
          expect(tool.description).toBe(approval?.required === true ? `${description} Requires approval.` : description);
        } else {
          // No adapter adds the suffix on identity surfaces: the descriptor states it (docs/architecture/spec/adapters.md#adapters-5-1, C2).
          expect(tool.description).toBe(description);
          expect((tool.native as CapabilityDescriptor | undefined)?.requiresApproval).toBe(id === "fixtures.gated" ? true : undefined);
        }
      }
      if (harness.naming === "mapped") expect(gated!.description).toBe("A gated write. Requires approval.");
    });

    check("C3", "each listed input schema equals the capability's JSON Schema", async () => {
      const { harness, names, registry } = await setup();
      const tools = await harness.listTools(u_dana);
      let compared = 0;
      for (const tool of tools) {
        const id = names.idOf(tool.name);
        if (id === undefined) continue;
        const schema = registry.get(id)!.inputSchema;
        expect(tool.inputSchema, tool.name).toEqual(schema ? toJsonSchema(schema) : { type: "object" });
        compared++;
      }
      expect(compared).toBe(tools.filter((tool) => names.idOf(tool.name) !== undefined).length);
      expect(tools.find((tool) => tool.name === names.of("fixtures.echo"))?.inputSchema).toMatchObject({
        type: "object",
        properties: { text: { type: "string" } },
      });
    });

    check("C4", "u_mallory does not list hiddenForMallory, and calling it as u_mallory is concealed", async () => {
      const { harness, names } = await setup();
      const name = names.of("fixtures.hiddenForMallory");
      expect((await harness.listTools(u_dana)).map((tool) => tool.name)).toContain(name);
      expect((await harness.listTools(u_mallory)).map((tool) => tool.name)).not.toContain(name);
      expect(JSON.stringify(await harness.callTool(u_mallory, name, {}))).toBe(CONCEALED);
      expect(await harness.callTool(u_dana, name, {})).toEqual({ status: "ok", data: { seen: true } });
    });

    check("C5", "echo with a wrong type or an extra key fails INPUT_INVALID with issue paths and no values; the handler never runs", async () => {
      const { harness, names } = await setup();
      const echo = names.of("fixtures.echo");
      const wrongType = await harness.callTool(u_dana, echo, { text: 42 });
      const extraKey = await harness.callTool(u_dana, echo, { text: "a", extra: 1 });
      for (const envelope of [wrongType, extraKey]) {
        expect(envelope).toMatchObject({ status: "error", error: { code: "INPUT_INVALID", message: "Input validation failed.", retryable: false } });
        if (envelope.status !== "error") continue;
        const issues = (envelope.error.details as { issues: unknown[] } | undefined)?.issues;
        expect(Array.isArray(issues) && issues.length > 0).toBe(true);
        for (const issue of issues!) {
          // Path and message only: the offending value never crosses (the model authored it).
          expect(Object.keys(issue as object).sort()).toEqual(["message", "path"]);
          const { path, message } = issue as { path: unknown[]; message: unknown };
          expect(path.every((segment) => typeof segment === "string")).toBe(true);
          expect(typeof message).toBe("string");
        }
      }
      expect(((wrongType as { error: { details: { issues: { path: string[] }[] } } }).error.details.issues)[0]!.path).toEqual(["text"]);
      expect(JSON.stringify(wrongType)).not.toContain("42");
      const echoEvents = eventsOf(await harness.auditEvents(), "fixtures.echo");
      expect(echoEvents.filter((event) => event.type === "capability.started")).toEqual([]);
      expect(echoEvents.filter((event) => event.type === "capability.failed").map((event) => (event.data as { stage: string }).stage)).toEqual([
        "input-validation",
        "input-validation",
      ]);
    });

    check("C6", "a completed call is exactly { status: ok, data }, and redacted output lacks the secret", async () => {
      const { harness, names } = await setup();
      const echoed = await harness.callTool(u_dana, names.of("fixtures.echo"), { text: "hello" });
      expect(JSON.stringify(echoed)).toBe('{"status":"ok","data":{"echoed":"hello"}}');
      const redacted = await harness.callTool(u_dana, names.of("fixtures.redacted"), {});
      expect(redacted).toEqual({ status: "ok", data: { visible: "shown" } });
      expect(JSON.stringify(redacted)).not.toContain("fixture-secret-value");
    });

    check("C7", "a gated call is approval-required (apr_ id, Awaiting approval message), not an error", async () => {
      const { fixture, harness, names } = await setup();
      const envelope = await harness.callTool(u_dana, names.of("fixtures.gated"), { amount: 5 });
      expect(envelope.status).toBe("approval-required");
      if (envelope.status !== "approval-required") return;
      expect(envelope.approvalId).toMatch(/^apr_/);
      expect(envelope.message).toMatch(/^Awaiting approval/);
      expect(envelope).not.toHaveProperty("error");
      // The request lives in the fixture's coordinator: the harness installed it.
      expect((await fixture.approvals.get(envelope.approvalId))?.status).toBe("pending");
    });

    check("C8", "a policy denial is the exact POLICY_DENIED shape without details; a declared error's message crosses", async () => {
      const { harness, names } = await setup();
      const denied = await harness.callTool(u_dana, names.of("fixtures.denied"), {});
      expect(JSON.stringify(denied)).toBe(
        '{"status":"error","error":{"code":"POLICY_DENIED","message":"This operation is not allowed for agents.","retryable":false}}',
      );
      const declared = await harness.callTool(u_dana, names.of("fixtures.declaredError"), {});
      expect(declared).toEqual(errorEnvelope("EXECUTION_FAILED", "The item is out of stock.", false));
    });

    check("C9", "an undeclared throw is the exact generic INTERNAL_ERROR; the internal detail never appears", async () => {
      const { harness, names } = await setup();
      const envelope = await harness.callTool(u_dana, names.of("fixtures.concealedError"), {});
      expect(JSON.stringify(envelope)).toBe('{"status":"error","error":{"code":"INTERNAL_ERROR","message":"The operation failed.","retryable":false}}');
      expect(JSON.stringify(envelope)).not.toContain("users_table");
    });

    check("C10", "a capability outliving its timeout fails TIMEOUT, retryable", async () => {
      const { harness, names } = await setup();
      const envelope = await harness.callTool(u_dana, names.of("fixtures.timesOut"), {});
      expect(envelope).toEqual(errorEnvelope("TIMEOUT", "The operation timed out.", true));
    });

    check("C11", "aborting slow after its handler started: the handler sees the abort, CANCELLED, audit capability.cancelled", async () => {
      const { harness, names } = await setup();
      const envelope = await abortAfterStart(harness, names, "fixtures.slow");
      expect((await signalObservations.settled("fixtures.slow")).aborted).toBe(true);
      if (journaled) expect(envelope.status).toBe("outcome-unknown"); // a client abort after dispatch (docs/architecture/spec/distributed.md#distributed-4)
      else expect(envelope).toEqual(errorEnvelope("CANCELLED", "The operation was cancelled.", false));
      const cancelled = eventsOf(await harness.auditEvents(), "fixtures.slow").filter((event) => event.type === "capability.cancelled");
      expect(cancelled.map((event) => (event.data as { code: string }).code)).toEqual(["CANCELLED"]);
    }, {
      title: "the abort still settles the call at once, as not ok, while the running handler never sees its signal abort",
      body: async () => {
        const { harness, names } = await setup();
        const envelope = await abortAfterStart(harness, names, "fixtures.slow");
        expect(envelope.status).toBe(journaled ? "outcome-unknown" : "error");
        // The handler settles only on abort: no observation means it is still running, unaborted.
        expect(signalObservations.list().filter((observation) => observation.capabilityId === "fixtures.slow")).toEqual([]);
      },
    });

    check("C12", "unknown, unexposed and hidden (and a raw dotted id when mapped) are byte-identical CAPABILITY_NOT_FOUND; audit keeps the true reasons", async () => {
      const { harness, names } = await setup();
      const unknown = harness.naming === "mapped" ? "fixtures_missing" : "fixtures.missing";
      const probes = [unknown, names.of("fixtures.unexposed"), names.of("fixtures.hidden")];
      if (harness.naming === "mapped") probes.push("fixtures.echo"); // addressable only by its wire name
      for (const probe of probes) expect(JSON.stringify(await harness.callTool(u_dana, probe, {})), probe).toBe(CONCEALED);

      const events = await harness.auditEvents();
      const reasonOf = (capabilityId: string) =>
        events.filter((event) => event.type === "capability.denied" && event.capabilityId === capabilityId).map((event) => (event.data as { reason: string }).reason);
      expect(reasonOf(unknown)).toEqual(["unknown"]);
      expect(reasonOf("fixtures.unexposed")).toEqual(["not-exposed"]);
      expect(reasonOf("fixtures.hidden")).toEqual(["hidden"]);
      // A raw id addressed by a different wire name never reaches the runtime (docs/architecture/spec/adapters.md#adapters-1-4).
      if (harness.naming === "mapped") expect(eventsOf(events, "fixtures.echo")).toEqual([]);
    });

    check("C13", "naming: mapped harnesses answer to the meta tool name, not the default one, and reject a colliding toolNaming (meta beats it); identity harnesses answer to ids only", async () => {
      const { harness, names } = await setup();
      const renamedOk = { status: "ok", data: { renamed: true } };
      expect(harness.naming).toBe(MAPPED_SURFACES.includes(harness.surface) ? "mapped" : "identity");
      if (harness.naming === "mapped") {
        expect(names.of("fixtures.renamed")).toBe("custom_name");
        expect(await harness.callTool(u_dana, "custom_name", {})).toEqual(renamedOk);
        expect(JSON.stringify(await harness.callTool(u_dana, "fixtures_renamed", {}))).toBe(CONCEALED);
        expect(typeof harness.buildWithCollidingNaming).toBe("function");
        const error = await harness.buildWithCollidingNaming!().then(
          () => undefined,
          (rejection: unknown) => rejection,
        );
        expect(error, "a colliding toolNaming must reject the build").toBeInstanceOf(Error);
        const message = (error as Error).message;
        expect(message).toMatch(/collision/i);
        expect(message.match(/fixtures\.\w+/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
        // fixtures.renamed keeps its meta name under any toolNaming, so it collides with nothing.
        expect(message).not.toContain("fixtures.renamed");
      } else {
        // Identity naming (docs/architecture/spec/adapters.md#adapters-5-1): the id is the name; meta tool names are protocol hints only.
        expect(await harness.callTool(u_dana, "fixtures.renamed", {})).toEqual(renamedOk);
        expect(JSON.stringify(await harness.callTool(u_dana, "custom_name", {}))).toBe(CONCEALED);
        expect(harness.buildWithCollidingNaming).toBeUndefined();
      }
    });

    check("C14", "an actor smuggled in the arguments changes nothing: whoami runs as u_dana, and audit agrees (SI-3)", async () => {
      const { harness, names } = await setup();
      const envelope = await harness.callTool(u_dana, names.of("fixtures.whoami"), { actor: { id: "u_admin" } });
      expect(envelope).toMatchObject({ status: "ok", data: { id: "u_dana", kind: "user" } });
      const events = eventsOf(await harness.auditEvents(), "fixtures.whoami");
      expect(events.map((event) => event.type)).toEqual(["capability.requested", "capability.started", "capability.completed"]);
      for (const event of events) expect(event.actor).toEqual({ id: "u_dana", kind: "user" });
      expect(JSON.stringify(events)).not.toContain("u_admin");
    });

    check("C15", "a tag scope narrows the listing yet the out-of-scope capability still completes (no scope on this surface: the full listing holds it)", async () => {
      const { harness, names } = await setup();
      const tagged = names.of("fixtures.tagged");
      const untagged = names.of("fixtures.untagged");
      if (harness.scopes) {
        const scoped = (await harness.listTools(u_dana, { scope: { tags: ["scoped"] } })).map((tool) => tool.name);
        expect(scoped.filter((name) => names.idOf(name) !== undefined)).toEqual([tagged]);
        expect(scoped).not.toContain(untagged);
      } else {
        // The surface offers no scope (docs/architecture/spec/adapters.md#adapters-3-1, Q12): listing stays complete.
        const full = (await harness.listTools(u_dana)).map((tool) => tool.name);
        expect(full).toEqual(expect.arrayContaining([tagged, untagged]));
      }
      // Scope is never authority (SI-2).
      expect(await harness.callTool(u_dana, untagged, {})).toEqual({ status: "ok", data: { tagged: false } });
    });

    check("C16", "gated: pending, decided by u_priya (not by the requester), resumed once to ok, a second resume does not run it again; audit in order", async () => {
      const { fixture, harness, names } = await setup();
      expect(harness.resume, `${name}: resume is null; declare C16 not applicable with the harness's mapping`).not.toBeNull();
      const pending = await harness.callTool(u_dana, names.of("fixtures.gated"), { amount: 5 });
      expect(pending.status).toBe("approval-required");
      const approvalId = (pending as { approvalId: string }).approvalId;

      await expect(harness.decide(approvalId, { status: "approved", approver: u_dana })).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
      expect((await fixture.approvals.get(approvalId))?.status).toBe("pending");
      await harness.decide(approvalId, { status: "approved", approver: u_priya });

      const first = await harness.resume!(u_dana, approvalId);
      expect(first).toEqual({ status: "ok", data: { applied: 5 } });
      const second = await harness.resume!(u_dana, approvalId);
      if (journaled) expect(second).toEqual(first); // the journal replays the stored envelope
      else expect(second).toEqual(errorEnvelope("APPROVAL_CONSUMED", "The approval has already been used.", false));

      const types = eventsOf(await harness.auditEvents(), "fixtures.gated").map((event) => event.type);
      expect(types.slice(0, 5)).toEqual([
        "capability.requested",
        "capability.approval_requested",
        "capability.approved",
        "capability.started",
        "capability.completed",
      ]);
      expect(types.filter((type) => type === "capability.started")).toHaveLength(1);
    });

    check("C17", "no tool approves, decides or rejects, and no native tool sets needsApproval or toModelOutput", async () => {
      const { harness } = await setup();
      const tools = [...(await harness.listTools(u_dana)), ...(await harness.listTools(u_mallory))];
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        expect(tool.name).not.toMatch(/approve|decide|reject/i);
        if (typeof tool.native === "object" && tool.native !== null) {
          expect((tool.native as { needsApproval?: unknown }).needsApproval).toBeUndefined();
          expect((tool.native as { toModelOutput?: unknown }).toModelOutput).toBeUndefined();
        }
      }
    });

    check("C18", "every audit event caused by the harness carries its surface", async () => {
      const { harness, names } = await setup();
      await harness.listTools(u_dana);
      await harness.callTool(u_dana, names.of("fixtures.echo"), { text: "a" });
      await harness.callTool(u_dana, names.of("fixtures.denied"), {});
      await harness.callTool(u_dana, names.of("fixtures.hidden"), {});
      const pending = await harness.callTool(u_dana, names.of("fixtures.gated"), { amount: 1 });
      const approvalId = (pending as { approvalId: string }).approvalId;
      await harness.decide(approvalId, { status: "approved", approver: u_priya });
      if (harness.resume) await harness.resume(u_dana, approvalId);
      const events = await harness.auditEvents();
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(["capabilities.discovered", "capability.completed", "capability.denied", "capability.approved"]),
      );
      for (const event of events) expect(event.surface, event.type).toBe(harness.surface);
    });

    check("C19", "identical calls give identical envelopes, apart from approvalId, invocationId and expiresAt", async () => {
      const { harness, names } = await setup();
      const calls: [string, unknown][] = [
        [names.of("fixtures.echo"), { text: "same" }],
        [names.of("fixtures.echo"), { text: 42 }],
        [names.of("fixtures.denied"), {}],
        [names.of("fixtures.concealedError"), {}],
        [names.of("fixtures.gated"), { amount: 3 }],
        [names.of("fixtures.hidden"), {}],
      ];
      for (const [tool, args] of calls) {
        const first = await harness.callTool(u_dana, tool, args);
        const second = await harness.callTool(u_dana, tool, args);
        expect(normalized(second), tool).toBe(normalized(first));
      }
    });

    check("C20", "a capability whose discovery policy throws is silently absent; the rest of the listing stands (SI-7)", async () => {
      const { harness, names } = await setup();
      const listed = (await harness.listTools(u_dana)).map((tool) => tool.name);
      expect(listed).not.toContain(names.of("fixtures.brokenDiscovery"));
      expect(listed).toEqual(expectedToolNames(harness.surface));
      // Listing succeeded: a discovery event, no rejection, no partial catalog.
      const discovered = (await harness.auditEvents()).filter((event) => event.type === "capabilities.discovered");
      expect(discovered.length).toBeGreaterThan(0);
    });

    check("C21", "aborting slowWrite after its handler started: CANCELLED locally, outcome-unknown on journaled surfaces", async () => {
      const { harness, names } = await setup();
      const envelope = await abortAfterStart(harness, names, "fixtures.slowWrite");
      if (journaled) {
        // Interrupted writes are uncertain on remote and workflow surfaces (docs/architecture/spec/distributed.md#distributed-5-4).
        expect(envelope.status).toBe("outcome-unknown");
        return;
      }
      expect(envelope).toEqual(errorEnvelope("CANCELLED", "The operation was cancelled.", false));
      expect((await signalObservations.settled("fixtures.slowWrite")).aborted).toBe(true);
      const cancelled = eventsOf(await harness.auditEvents(), "fixtures.slowWrite").filter((event) => event.type === "capability.cancelled");
      // The write began, so its effect is unknown (docs/architecture/spec/core.md#core-6-1).
      expect(cancelled.map((event) => event.data)).toEqual([expect.objectContaining({ code: "CANCELLED", effectStatus: "unknown" })]);
    });

    check("C22", "a standing grant (SI-13) covers a gated call within its conditions without suspending, reported approved; a call outside them suspends as usual", async () => {
      const { fixture, harness, names } = await setup();
      // Issued by the application on a runtime of its own over the same governance and coordinator, for the
      // principal and surface the harness calls as. Scope "actor": no surface has to carry a conversation id.
      const issuer = createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
      const grant = await issuer.grants.issue({
        capabilityId: "fixtures.gated",
        actor: u_dana,
        surface: harness.surface,
        issuers: [u_priya],
        grant: { uses: 2, ttlMs: 60_000, scope: "actor", conditions: [{ path: "/amount", op: "lte", value: 10 }] },
      });

      expect(await harness.callTool(u_dana, names.of("fixtures.gated"), { amount: 5 })).toEqual({ status: "ok", data: { applied: 5 } });
      const outside = await harness.callTool(u_dana, names.of("fixtures.gated"), { amount: 50 });
      expect(outside.status).toBe("approval-required");
      expect((await fixture.approvals.get((outside as { approvalId: string }).approvalId))?.status).toBe("pending");

      const events = eventsOf(await harness.auditEvents(), "fixtures.gated");
      const approved = events.filter((event) => event.type === "capability.approved");
      expect(approved.map((event) => event.data)).toEqual([expect.objectContaining({ approvalId: grant.id, grant: { id: grant.id, usesLeft: 1 } })]);
      expect(approved[0]!.surface).toBe(harness.surface);
      // The covered call never asked; the one outside the conditions did, once.
      expect(events.filter((event) => event.type === "capability.approval_requested")).toHaveLength(1);
      expect(events.filter((event) => event.type === "capability.completed")).toHaveLength(1);
    });
  });
}

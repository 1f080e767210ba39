import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../check-boundaries.mjs", import.meta.url));
const trees: string[] = [];

/** Runs the checker as CI does: a child process, exit code and output. */
function check(root?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = root === undefined ? [script] : [script, root];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { encoding: "utf8", cwd: tmpdir() }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A workspace with a clean core (incl. core/client), two adapters and a testing package. */
const CLEAN: Record<string, string> = {
  "packages/core/package.json": JSON.stringify({
    name: "@orpc-agent/core",
    dependencies: { "@standard-schema/spec": "1.1.0" },
    peerDependencies: { "@orpc/server": "^1.14.10", zod: "^4" },
  }),
  "packages/core/src/index.ts": [
    'import { call } from "@orpc/server";',
    'import type { StandardSchemaV1 } from "@standard-schema/spec";',
    'export { createAgentRuntime } from "./runtime/create-runtime.js";',
    "// a comment naming \"ai\" or pg is not an import",
    'export const note = "import x from \\"ai\\"";',
    "export type Schema = StandardSchemaV1;",
    "export { call };",
  ].join("\n"),
  "packages/core/src/runtime/create-runtime.ts": [
    'const crypto = globalThis.process?.getBuiltinModule?.("node:crypto");',
    'export async function loadZod() { return import("zod"); }',
    "export function createAgentRuntime() { return crypto; }",
  ].join("\n"),
  "packages/core/src/client/index.ts": [
    'import type { AnyProcedure } from "@orpc/server";',
    'export type { ErrorCode } from "../errors/codes.js";',
    'export { isOutcomeUnknown } from "./guards.js";',
    "export type Procedure = AnyProcedure;",
    "export const REMOTE_PROTOCOL = 1 as const;",
  ].join("\n"),
  "packages/core/src/client/guards.ts": "export function isOutcomeUnknown(r: { status: string }) { return r.status === \"outcome-unknown\"; }\n",
  "packages/core/src/errors/codes.ts": 'export type ErrorCode = "INTERNAL_ERROR";\n',
  "packages/ai-sdk/package.json": JSON.stringify({
    name: "@orpc-agent/ai-sdk",
    peerDependencies: { "@orpc-agent/core": "workspace:^", ai: "^5" },
    devDependencies: { "@orpc-agent/core": "workspace:^" },
  }),
  "packages/ai-sdk/src/index.ts": 'import { tool } from "ai";\nimport { CapabilityError } from "@orpc-agent/core";\nexport { tool, CapabilityError };\n',
  "packages/mcp/package.json": JSON.stringify({ name: "@orpc-agent/mcp", peerDependencies: { "@orpc-agent/core": "workspace:^" } }),
  "packages/mcp/src/server.ts": 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport { McpServer };\n',
  "packages/testing/package.json": JSON.stringify({ name: "@orpc-agent/testing" }),
  "packages/testing/src/index.ts": 'import { createAgentRuntime } from "@orpc-agent/core";\nexport { createAgentRuntime };\n',
};
const CLEAN_FILE_COUNT = 8;

function tree(overrides: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "check-boundaries-"));
  trees.push(root);
  for (const [file, content] of Object.entries({ ...CLEAN, ...overrides })) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

afterAll(() => {
  for (const root of trees) rmSync(root, { recursive: true, force: true });
});

// Each case spawns a Node process that loads TypeScript and dependency-cruiser; under a busy full-suite run that
// can take seconds, so the cases run one after another with room to spare.
describe("check-boundaries", { timeout: 30_000 }, () => {
  it("passes a clean tree and counts its source files", async () => {
    const result = await check(tree());
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(`check:boundaries: ok (${CLEAN_FILE_COUNT} files)`);
    expect(result.code).toBe(0);
  });

  it("fails when core imports the AI SDK, naming file, line and rule", async () => {
    const result = await check(
      tree({ "packages/core/src/runtime/bad.ts": '// planted\nimport { generateText } from "ai";\nexport { generateText };\n' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 1 violation(s)");
    expect(result.stderr).toMatch(/packages\/core\/src\/runtime\/bad\.ts:2 \[core-imports\] .*"ai"/);
    expect(result.stdout).toBe("");
  });

  it("fails when core dynamically imports a database driver", async () => {
    const result = await check(
      tree({ "packages/core/src/store.ts": 'export async function pool() {\n  const { Pool } = await import("pg");\n  return new Pool();\n}\n' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/packages\/core\/src\/store\.ts:2 \[core-imports\] .*"pg" \(a database driver\)/);
  });

  it("fails on every import form and banned family in core: require, re-export, type-only import, sibling package, pg-* driver, PGlite", async () => {
    const planted: Record<string, [string, string]> = {
      "otel.ts": ['const api = require("@opentelemetry/api");\nexport { api };\n', "@opentelemetry/api"],
      "mcp.ts": ['export * from "@modelcontextprotocol/sdk/types.js";\n', "@modelcontextprotocol/sdk/types.js"],
      "provider.ts": ['import type { OpenAIProvider } from "@ai-sdk/openai";\nexport type P = OpenAIProvider;\n', "@ai-sdk/openai"],
      "sibling.ts": ['import { harness } from "@orpc-agent/testing";\nexport { harness };\n', "@orpc-agent/testing"],
      "cursor.ts": ['import Cursor from "pg-cursor";\nexport { Cursor };\n', "pg-cursor"],
      "pglite.ts": ['import { PGlite } from "@electric-sql/pglite";\nexport { PGlite };\n', "@electric-sql/pglite"],
    };
    const files = Object.fromEntries(Object.entries(planted).map(([name, [content]]) => [`packages/core/src/bad/${name}`, content]));
    const result = await check(tree(files));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`check:boundaries: ${Object.keys(planted).length} violation(s)`);
    for (const [name, [, specifier]] of Object.entries(planted)) {
      expect(result.stderr).toContain(`packages/core/src/bad/${name}:1 [core-imports] @orpc-agent/core imports "${specifier}"`);
    }
  });

  it("fails when an adapter imports another adapter", async () => {
    const result = await check(
      tree({ "packages/mcp/src/bridge.ts": 'import type { AISDKToolResult } from "@orpc-agent/ai-sdk";\nexport type R = AISDKToolResult;\n' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/packages\/mcp\/src\/bridge\.ts:1 \[adapter-imports-adapter\] @orpc-agent\/mcp imports "@orpc-agent\/ai-sdk"/);
  });

  it("fails when an adapter reaches into another package with a relative path", async () => {
    const result = await check(tree({ "packages/mcp/src/bridge.ts": 'export { tool } from "../../ai-sdk/src/index.js";\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("packages/mcp/src/bridge.ts:1 [relative-import-leaves-package]");
  });

  it("fails when core/client imports something at run time", async () => {
    const result = await check(tree({ "packages/core/src/client/http.ts": 'import { ORPCError } from "@orpc/server";\nexport { ORPCError };\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/packages\/core\/src\/client\/http\.ts:1 \[client-type-only\] runtime import of "@orpc\/server"/);
  });

  it("fails when core/client imports core's main entry at run time by a relative path", async () => {
    const result = await check(tree({ "packages/core/src/client/errors.ts": 'export { CapabilityError } from "../index.js";\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('packages/core/src/client/errors.ts:1 [client-type-only] runtime import of "../index.js"');
  });

  it("fails on `import { type X }` in core/client, which stays a runtime import under verbatimModuleSyntax", async () => {
    const result = await check(tree({ "packages/core/src/client/types.ts": 'import { type AnyProcedure } from "@orpc/server";\nexport type P = AnyProcedure;\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("packages/core/src/client/types.ts:1 [client-type-only]");
  });

  it("passes `import type` and `export type` in core/client", async () => {
    const result = await check(
      tree({
        "packages/core/src/client/types.ts": [
          'import type { AnyProcedure } from "@orpc/server";',
          'export type { ErrorCode } from "../errors/codes.js";',
          'export type Loaded = typeof import("@orpc/server");',
          "export type P = AnyProcedure;",
        ].join("\n"),
      }),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("fails when testing imports a protocol SDK", async () => {
    const result = await check(tree({ "packages/testing/src/index.ts": 'import { tool } from "ai";\nexport { tool };\n' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('packages/testing/src/index.ts:1 [testing-imports] @orpc-agent/testing imports "ai"');
  });

  it("fails when postgres imports a driver, while its PgQuery seam needs none (postgres.md §1)", async () => {
    const result = await check(
      tree({
        "packages/postgres/package.json": JSON.stringify({ name: "@orpc-agent/postgres", peerDependencies: { "@orpc-agent/core": "workspace:^" } }),
        "packages/postgres/src/approvals.ts": 'import type { ApprovalCoordinator } from "@orpc-agent/core";\nimport { Pool } from "pg";\nexport type C = ApprovalCoordinator;\nexport { Pool };\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 1 violation(s)");
    expect(result.stderr).toContain('packages/postgres/src/approvals.ts:2 [postgres-imports] @orpc-agent/postgres imports "pg"');
  });

  it("lets dbos import its own SDK and core/server but no driver (distributed.md §10 B3)", async () => {
    const result = await check(
      tree({
        "packages/dbos/package.json": JSON.stringify({ name: "@orpc-agent/dbos" }),
        "packages/dbos/src/index.ts": [
          'import { DBOS } from "@dbos-inc/dbos-sdk";',
          'import { createInvocationService } from "@orpc-agent/core/server";',
          'import postgres from "postgres";',
          "export { DBOS, createInvocationService, postgres };",
        ].join("\n"),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 1 violation(s)");
    expect(result.stderr).toContain('packages/dbos/src/index.ts:3 [dbos-imports] @orpc-agent/dbos imports "postgres"');
  });

  it("lets notify import core and its libraries but no driver and no other @orpc-agent package (issue 50)", async () => {
    const result = await check(
      tree({
        "packages/notify/package.json": JSON.stringify({ name: "@orpc-agent/notify", dependencies: { standardwebhooks: "^1.3.0", pg: "^8.0.0" } }),
        "packages/notify/src/index.ts": [
          'import type { ApprovalView } from "@orpc-agent/core";',
          'import { Webhook } from "standardwebhooks";',
          'import pg from "pg";',
          'import type { PgQuery } from "@orpc-agent/postgres";',
          "export type { ApprovalView, PgQuery };",
          "export { Webhook, pg };",
        ].join("\n"),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 3 violation(s)");
    expect(result.stderr).toContain('packages/notify/src/index.ts:3 [notify-imports] @orpc-agent/notify imports "pg"');
    expect(result.stderr).toContain('packages/notify/src/index.ts:4 [notify-imports] @orpc-agent/notify imports "@orpc-agent/postgres"');
    expect(result.stderr).toMatch(/packages\/notify\/package\.json:\d+ \[notify-manifest\] .*"pg"/);
  });

  it("fails on package.json boundaries: forbidden core or postgres dependency, adapter on adapter, core as a runtime dependency", async () => {
    const result = await check(
      tree({
        "packages/core/package.json": JSON.stringify({ name: "@orpc-agent/core", dependencies: { pg: "^8" } }, null, 2),
        "packages/postgres/package.json": JSON.stringify({ name: "@orpc-agent/postgres", peerDependencies: { "@electric-sql/pglite": "^0.3" } }, null, 2),
        "packages/ai-sdk/package.json": JSON.stringify(
          { name: "@orpc-agent/ai-sdk", dependencies: { "@orpc-agent/core": "workspace:^" }, peerDependencies: { "@orpc-agent/mcp": "workspace:^" } },
          null,
          2,
        ),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 4 violation(s)");
    expect(result.stderr).toContain('packages/core/package.json:4 [core-manifest] @orpc-agent/core lists "pg"');
    expect(result.stderr).toContain("packages/ai-sdk/package.json:4 [core-is-a-peer]");
    expect(result.stderr).toContain('packages/postgres/package.json:4 [postgres-manifest] @orpc-agent/postgres lists "@electric-sql/pglite"');
    expect(result.stderr).toContain('packages/ai-sdk/package.json:7 [adapter-manifest] @orpc-agent/ai-sdk lists "@orpc-agent/mcp"');
  });

  it("lists every violation, not only the first", async () => {
    const result = await check(
      tree({
        "packages/core/src/a.ts": 'import "ai";\n',
        "packages/core/src/b.ts": '\n\nimport { trace } from "@opentelemetry/api";\nexport { trace };\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 2 violation(s)");
    expect(result.stderr).toContain("packages/core/src/a.ts:1 [core-imports]");
    expect(result.stderr).toContain("packages/core/src/b.ts:3 [core-imports]");
  });

  it("exits 2 when the root has no packages directory", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "check-boundaries-empty-"));
    trees.push(empty);
    const result = await check(empty);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no packages/ directory");
  });

  it("fails on an import circle in core, ai-sdk and mcp, naming the loop; a type-only import counts", async () => {
    const result = await check(
      tree({
        "packages/core/src/policy/a.ts": 'import type { B } from "./b.js";\nexport type A = { b?: B };\n',
        "packages/core/src/policy/b.ts": 'import type { A } from "./a.js";\nexport type B = { a?: A };\n',
        "packages/ai-sdk/src/options.ts": 'import { toTools } from "./tools.js";\nexport const options = { toTools };\n',
        "packages/ai-sdk/src/tools.ts": '\nimport { relay } from "./relay.js";\nexport function toTools() { return relay; }\n',
        "packages/ai-sdk/src/relay.ts": 'import { options } from "./options.js";\nexport const relay = () => options;\n',
        "packages/mcp/src/catalog.ts": 'export { handler } from "./handler.js";\nexport const catalog = 1;\n',
        "packages/mcp/src/handler.ts": 'import { catalog } from "./catalog.js";\nexport const handler = () => catalog;\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 3 violation(s)");
    expect(result.stderr).toMatch(/packages\/core\/src\/policy\/[ab]\.ts:1 \[import-circle\] modules import each other around a loop: packages\/core\/src\/policy\/[ab]\.ts → /);
    expect(result.stderr).toContain("packages/core/src/policy/a.ts → packages/core/src/policy/b.ts → packages/core/src/policy/a.ts");
    expect(result.stderr).toMatch(/packages\/ai-sdk\/src\/\w+\.ts:\d \[import-circle\]/);
    expect(result.stderr).toContain("packages/ai-sdk/src/options.ts → packages/ai-sdk/src/tools.ts → packages/ai-sdk/src/relay.ts → packages/ai-sdk/src/options.ts");
    expect(result.stderr).toMatch(/packages\/mcp\/src\/\w+\.ts:\d \[import-circle\] .*packages\/mcp\/src\/catalog\.ts → packages\/mcp\/src\/handler\.ts → packages\/mcp\/src\/catalog\.ts/);
  });

  it("passes the same modules once the shared part has moved out of the loop", async () => {
    const result = await check(
      tree({
        "packages/core/src/policy/shared.ts": "export type A = { b?: B };\nexport type B = { a?: A };\n",
        "packages/core/src/policy/a.ts": 'import type { A } from "./shared.js";\nexport type First = A;\n',
        "packages/core/src/policy/b.ts": 'import type { B } from "./shared.js";\nexport type Second = B;\n',
      }),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("fails when a folder of core imports one above it in the layer order, naming the file, line and order", async () => {
    const result = await check(
      tree({
        "packages/core/src/policy/types.ts": 'export type AgentPolicy = { name: string };\n',
        "packages/core/src/capability/types.ts": '// planted\nimport type { AgentPolicy } from "../policy/types.js";\nexport type AgentMeta = { policies?: AgentPolicy[] };\n',
        "packages/core/src/approvals/state.ts": 'export { createAgentRuntime } from "../runtime/create-runtime.js";\n',
        "packages/core/src/errors/entry.ts": 'export { note } from "../index.js";\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 3 violation(s)");
    expect(result.stderr).toMatch(
      /packages\/core\/src\/capability\/types\.ts:2 \[core-layers\] capability\/ imports packages\/core\/src\/policy\/types\.ts, above it in core's layer order \(internal < .* < capability < policy < .*server\)/,
    );
    expect(result.stderr).toContain("packages/core/src/approvals/state.ts:1 [core-layers] approvals/ imports packages/core/src/runtime/create-runtime.ts");
    expect(result.stderr).toContain("packages/core/src/errors/entry.ts:1 [core-layers] errors/ imports packages/core/src/index.ts");
  });

  it("fails when core gains a folder that has no place in the layer order", async () => {
    const result = await check(
      tree({ "packages/core/src/helpers/format.ts": 'import type { ErrorCode } from "../errors/codes.js";\nexport type Code = ErrorCode;\n' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("packages/core/src/helpers/format.ts:1 [core-layers]");
    expect(result.stderr).toContain("helpers/ has no place in core's layer order");
  });

  it("fails when anything outside packages/mcp/src/v1/ imports from it, naming file, line and rule", async () => {
    const result = await check(
      tree({
        "packages/mcp/src/v1/options.ts": "export type MCPServerOptions = { name: string };\n",
        "packages/mcp/src/http/handler.ts": '// planted\nimport type { MCPServerOptions } from "../v1/options.js";\nexport type O = MCPServerOptions;\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 1 violation(s)");
    expect(result.stderr).toContain(
      "packages/mcp/src/http/handler.ts:2 [mcp-v1-private] packages/mcp/src/http/handler.ts imports packages/mcp/src/v1/options.ts: only packages/mcp/src/v1/ imports from v1/",
    );
  });

  it("fails when v1/ imports a folder of the v2 entry, or reaches the SDK v2 directly or through a shared file", async () => {
    const result = await check(
      tree({
        "packages/mcp/src/server/identity.ts": "export const resolveIdentity = () => null;\n",
        "packages/mcp/src/node/to-node.ts": 'import { toNodeHandler } from "@modelcontextprotocol/node";\nexport { toNodeHandler };\n',
        "packages/mcp/src/v1/session.ts": 'import { resolveIdentity } from "../server/identity.js";\nexport { resolveIdentity };\n',
        "packages/mcp/src/v1/listen.ts": '\nimport { toNodeHandler } from "../node/to-node.js";\nexport { toNodeHandler };\n',
        "packages/mcp/src/v1/direct.ts": 'import type { AuthInfo } from "@modelcontextprotocol/server";\nexport type A = AuthInfo;\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 3 violation(s)");
    expect(result.stderr).toContain("packages/mcp/src/v1/session.ts:1 [mcp-v1-sdk-free] packages/mcp/src/v1/session.ts imports packages/mcp/src/server/identity.ts: v1/ imports only");
    expect(result.stderr).toContain("packages/mcp/src/v1/listen.ts:2 [mcp-v1-sdk-free] packages/mcp/src/v1/listen.ts → packages/mcp/src/node/to-node.ts → @modelcontextprotocol/node: v1/ never reaches the MCP SDK v2");
    expect(result.stderr).toContain("packages/mcp/src/v1/direct.ts:1 [mcp-v1-sdk-free] packages/mcp/src/v1/direct.ts → @modelcontextprotocol/server: v1/ never reaches the MCP SDK v2");
  });

  it("fails when catalog/ imports anything but core and its own files", async () => {
    const result = await check(
      tree({
        "packages/mcp/src/server/identity.ts": "export const resolveIdentity = () => null;\n",
        "packages/mcp/src/catalog/list-tools.ts": [
          'import { ProtocolError } from "@modelcontextprotocol/server";',
          'import { resolveIdentity } from "../server/identity.js";',
          'import { z } from "zod";',
          "export { ProtocolError, resolveIdentity, z };",
        ].join("\n"),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 3 violation(s)");
    expect(result.stderr).toContain("packages/mcp/src/catalog/list-tools.ts:1 [mcp-catalog-core-only] packages/mcp/src/catalog/list-tools.ts imports @modelcontextprotocol/server: catalog/ is SDK-free");
    expect(result.stderr).toContain("packages/mcp/src/catalog/list-tools.ts:2 [mcp-catalog-core-only] packages/mcp/src/catalog/list-tools.ts imports packages/mcp/src/server/identity.ts");
    expect(result.stderr).toContain("packages/mcp/src/catalog/list-tools.ts:3 [mcp-catalog-core-only] packages/mcp/src/catalog/list-tools.ts imports zod");
  });

  it("judges an installed SDK by where it resolves: node_modules stays in the graph as a leaf", async () => {
    const result = await check(
      tree({
        "packages/mcp/node_modules/@modelcontextprotocol/server/package.json": JSON.stringify({ name: "@modelcontextprotocol/server", main: "index.js" }),
        "packages/mcp/node_modules/@modelcontextprotocol/server/index.js": "export const Server = 1;\n",
        "packages/mcp/src/v1/server.ts": 'import { Server } from "@modelcontextprotocol/server";\nexport { Server };\n',
        "packages/mcp/src/catalog/server.ts": 'import { Server } from "@modelcontextprotocol/server";\nexport { Server };\n',
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("check:boundaries: 2 violation(s)");
    expect(result.stderr).toContain("packages/mcp/src/v1/server.ts:1 [mcp-v1-sdk-free] packages/mcp/src/v1/server.ts → @modelcontextprotocol/server: v1/ never reaches the MCP SDK v2");
    expect(result.stderr).toContain("packages/mcp/src/catalog/server.ts:1 [mcp-catalog-core-only] packages/mcp/src/catalog/server.ts imports @modelcontextprotocol/server");
  });

  it("passes the MCP folders used as intended: v1 on the v1 SDK and the shared SDK-free code, catalog on core", async () => {
    const result = await check(
      tree({
        "packages/mcp/src/catalog/names.ts": 'import { toolNameMap } from "@orpc-agent/core/adapter";\nimport type { Actor } from "@orpc-agent/core";\nimport pkg from "../../package.json" with { type: "json" };\nimport { tag } from "./tag.js";\nexport { toolNameMap, pkg, tag };\nexport type A = Actor;\n',
        "packages/mcp/src/catalog/tag.ts": "export const tag = 1;\n",
        "packages/mcp/src/http/web-request-shape.ts": "export const isHostAuthority = (host: string) => host.length > 0;\n",
        "packages/mcp/src/node/listener.ts": "export const listener = () => undefined;\n",
        "packages/mcp/src/v1/index.ts": [
          'import { Server } from "@modelcontextprotocol/sdk/server/index.js";',
          'import { toolNameMap } from "../catalog/names.js";',
          'import { isHostAuthority } from "../http/web-request-shape.js";',
          'import { listener } from "../node/listener.js";',
          "export { Server, toolNameMap, isHostAuthority, listener };",
        ].join("\n"),
        "packages/mcp/src/index.ts": 'import { toolNameMap } from "./catalog/names.js";\nexport { toolNameMap };\n',
      }),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  // The whole repository's import graph: dependency-cruiser parses a few hundred modules.
  it("passes on the real repository tree (the default root)", { timeout: 120_000 }, async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^check:boundaries: ok \(\d+ files\)\n$/);
    expect(result.code).toBe(0);
  });
});

import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import projects from "./vitest.workspace.ts";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against package sources, so a fresh clone needs no build first.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@orpc-agent\/core\/schema\/valibot$/, replacement: src("./packages/core/src/schema/valibot.ts") },
      { find: /^@orpc-agent\/core\/schema\/arktype$/, replacement: src("./packages/core/src/schema/arktype.ts") },
      { find: /^@orpc-agent\/core\/schema$/, replacement: src("./packages/core/src/schema/index.ts") },
      { find: /^@orpc-agent\/core\/client$/, replacement: src("./packages/core/src/client/index.ts") },
      { find: /^@orpc-agent\/core\/http$/, replacement: src("./packages/core/src/http/index.ts") },
      { find: /^@orpc-agent\/core\/server$/, replacement: src("./packages/core/src/server/index.ts") },
      { find: /^@orpc-agent\/core\/drift$/, replacement: src("./packages/core/src/drift/index.ts") },
      { find: /^@orpc-agent\/core\/adapter$/, replacement: src("./packages/core/src/adapter/index.ts") },
      { find: /^@orpc-agent\/core$/, replacement: src("./packages/core/src/index.ts") },
      { find: /^@orpc-agent\/mcp\/v1$/, replacement: src("./packages/mcp/src/v1/index.ts") },
      { find: /^@orpc-agent\/mcp\/node$/, replacement: src("./packages/mcp/src/node.ts") },
      { find: /^@orpc-agent\/mcp$/, replacement: src("./packages/mcp/src/index.ts") },
      { find: /^@orpc-agent\/(testing|postgres|ai-sdk|mcp|opentelemetry|cli|dbos|notify)$/, replacement: src("./packages/$1/src/index.ts") },
    ],
  },
  test: {
    projects,
    // Inherited by every project; starts a PostgreSQL server only when TEST_DATABASE_URL is unset.
    globalSetup: [src("./tests/global-setup/postgres.ts")],
    // Vitest's default leaves one core to its main process, which is one worker on a 2-core machine; but many files
    // spend their time waiting on child processes (tsc, the CLI, Chromium, PostgreSQL), so a second worker keeps
    // both cores busy.
    maxWorkers: Math.max(2, availableParallelism()),
    dangerouslyIgnoreUnhandledErrors: false,
    // .ci/run asks for a JSON report too, and fails the run when it counts a skipped test (scripts/check-no-skipped.mjs).
    ...(process.env.ORPC_AGENT_TEST_REPORT
      ? { reporters: ["default", "json"], outputFile: { json: process.env.ORPC_AGENT_TEST_REPORT } }
      : {}),
  },
});

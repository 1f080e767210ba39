// The oRPC 2 leg (docs/guides/orpc-2.md): the core, testing, ai-sdk and mcp suites, the adapters' conformance
// suite among them, with `@orpc/server` and `@orpc/client` (and their subpaths) aliased to the lockfile-pinned
// 2.0 beta installs. The root `pnpm test` run is the oRPC 1 leg without this file. Nothing is skipped here either.
//
//   pnpm test:orpc-v2
import { defineConfig } from "vitest/config";
import root from "./vitest.config.ts";
import projects from "./vitest.workspace.ts";

const V2_PROJECTS = new Set(["core", "testing", "ai-sdk", "mcp"]);

// Only imports from transformed files (sources, tests, test-fixtures) are rewritten; the 2.0 packages resolve
// their own dependencies (one @orpc/client 2.0 install, so ORPCError is one class on both sides).
const legAliases = [
  { find: /^@orpc\/server(\/.*)?$/, replacement: "orpc-server-v2$1" },
  { find: /^@orpc\/client(\/.*)?$/, replacement: "orpc-client-v2$1" },
];
const rootAliases = (root.resolve?.alias ?? []) as { find: string | RegExp; replacement: string }[];

const legProjects = projects
  .filter((p) => V2_PROJECTS.has(p.test.name))
  // The seam test asserts it really runs against 2.x (test/orpc/seam.test.ts). The type tests (the `types` project)
  // check the 1.x declarations core is compiled against, so this leg runs behaviour only.
  .map((p) => ({ ...p, test: { ...p.test, name: `${p.test.name} (orpc v2)`, env: { ORPC_AGENT_ORPC_MAJOR: "2" } } }));

export default defineConfig({
  ...root,
  resolve: { alias: [...legAliases, ...rootAliases] },
  test: { ...root.test, projects: legProjects },
});

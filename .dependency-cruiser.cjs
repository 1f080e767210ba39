// Import-graph rules (issue 44), checked by `pnpm check:boundaries` (scripts/check-boundaries.mjs runs
// dependency-cruiser over packages/core, packages/ai-sdk and packages/mcp with this file). Alone:
//   npx depcruise packages/core/src packages/ai-sdk/src packages/mcp/src --config .dependency-cruiser.cjs
// Type-only imports count: a circle through types is still a circle for the reader and for the declarations.
// Why core's folders come in this order: docs/architecture/packages.md, "Layers inside core".

/** The folders of packages/core/src, lowest first: a folder imports only folders before it here. */
const CORE_LAYERS = [
  "internal",
  "orpc",
  "errors",
  "tracing",
  "schema",
  "vocabulary",
  "approvals",
  "capability",
  "policy",
  "registry",
  "governance",
  "drift",
  "audit",
  "runtime",
  "adapter",
  "client",
  "http",
  "server",
];

const CORE = "^packages/core/src/";
const folders = (names) => `${CORE}(${names.join("|")})/`;
// The entry files at the root of src (index.ts) sit above every folder.
const ROOT_FILES = `${CORE}[^/]+$`;

module.exports = {
  forbidden: [
    {
      name: "import-circle",
      severity: "error",
      comment: "Modules that import each other, directly or around a loop: move the shared part where both can import it.",
      from: { path: "^packages/(core|ai-sdk|mcp)/src/" },
      to: { circular: true },
    },
    ...CORE_LAYERS.map((layer, index) => ({
      name: "core-layers",
      severity: "error",
      comment: `${layer}/ imports only ${index === 0 ? "nothing in core" : CORE_LAYERS.slice(0, index).join(", ")}`,
      from: { path: folders([layer]) },
      to: { path: index === CORE_LAYERS.length - 1 ? [ROOT_FILES] : [folders(CORE_LAYERS.slice(index + 1)), ROOT_FILES] },
    })),
    {
      name: "core-layers",
      severity: "error",
      comment: "a folder of core that has no place in CORE_LAYERS (.dependency-cruiser.cjs)",
      from: { path: CORE },
      to: { path: `${CORE}[^/]+/`, pathNot: folders(CORE_LAYERS) },
    },
    {
      name: "core-layers",
      severity: "error",
      comment: "a folder of core that has no place in CORE_LAYERS (.dependency-cruiser.cjs)",
      from: { path: `${CORE}[^/]+/`, pathNot: folders(CORE_LAYERS) },
      to: { path: CORE },
    },
  ],
  options: {
    // `import type` and `export type` are dependencies too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
  },
};

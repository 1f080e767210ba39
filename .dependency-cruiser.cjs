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
const MCP = "^packages/mcp/src/";
// The MCP SDK v2 packages, resolved (a path through node_modules) or not (the bare name).
const MCP_V2_SDK = "(^|/)@modelcontextprotocol/(server|node)(/|$)";
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
    // The deprecated SDK-v1 entry is one folder: deleting it is deleting packages/mcp/src/v1/
    // (docs/architecture/packages.md, "Inside the MCP adapter").
    {
      name: "mcp-v1-private",
      severity: "error",
      comment: "only packages/mcp/src/v1/ imports from v1/: move what both entries need to catalog/ (SDK-free)",
      from: { path: MCP, pathNot: `${MCP}v1/` },
      to: { path: `${MCP}v1/` },
    },
    {
      name: "mcp-v1-sdk-free",
      severity: "error",
      comment: "v1/ imports only its own files and the SDK-free shared code: catalog/, node/ and http/web-request-shape.ts",
      from: { path: `${MCP}v1/` },
      to: { path: MCP, pathNot: [`${MCP}(v1|catalog|node)/`, `${MCP}http/web-request-shape\\.ts$`] },
    },
    {
      name: "mcp-v1-sdk-free",
      severity: "error",
      comment: "v1/ never reaches the MCP SDK v2 (@modelcontextprotocol/server or /node), directly or through a shared file",
      from: { path: `${MCP}v1/` },
      to: { path: MCP_V2_SDK, reachable: true },
    },
    {
      name: "mcp-catalog-core-only",
      severity: "error",
      comment: "catalog/ is SDK-free: it imports only @orpc-agent/core (and its subpaths), its own files and the package's package.json",
      from: { path: `${MCP}catalog/` },
      to: { pathNot: [`${MCP}catalog/`, "^packages/mcp/package\\.json$", "(^|/)@orpc-agent/core(/|$)", "^packages/core/"] },
    },
  ],
  options: {
    // `import type` and `export type` are dependencies too.
    tsPreCompilationDeps: true,
    // Packages are leaves of the graph, never crawled, but kept: the MCP rules judge imports of the SDKs by where
    // they resolve, so excluding node_modules would hide exactly those edges.
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: "(^|/)dist/" },
  },
};

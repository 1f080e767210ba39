// The v1 barrel, kept at this path for the package's v1 tests; published as `@orpc-agent/mcp/v1` (src/v1.ts).
// The package's "." entry is src/main.ts (the v2 SDK).
export * from "./v1.js";

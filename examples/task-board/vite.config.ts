import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";

// The page in src/client, built to dist/client (CLIENT_OUT_DIR overrides), which src/server serves. The source
// condition bundles the workspace packages' TypeScript, so nothing needs building first. `dedupe`: should a page
// import reach `ai` through @orpc-agent/ai-sdk, whose workspace folder has an ai 5 devDependency, it gets the
// example's `ai` 6 too: one copy parses the stream.
export default defineConfig({
  root: fileURLToPath(new URL("src/client", import.meta.url)),
  resolve: { conditions: ["@orpc-agent/source", ...defaultClientConditions], dedupe: ["ai"] },
  esbuild: { jsx: "automatic" },
  build: {
    outDir: process.env.CLIENT_OUT_DIR ?? fileURLToPath(new URL("dist/client", import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // Two known, harmless findings: swr's "use client" means nothing in a client-only bundle, and core's oRPC
        // seam reads an export that only one oRPC major has (packages/core/src/orpc/errors.ts).
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" || (warning.code === "IMPORT_IS_UNDEFINED" && warning.message.includes("COMMON_ERROR_STATUS_MAP"))) return;
        warn(warning);
      },
    },
  },
  logLevel: "warn",
});

import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "schema/index": "src/schema/index.ts",
    "schema/valibot": "src/schema/valibot.ts",
    "schema/arktype": "src/schema/arktype.ts",
    "client/index": "src/client/index.ts",
    "http/index": "src/http/index.ts",
    "server/index": "src/server/index.ts",
    "drift/index": "src/drift/index.ts",
    "adapter/index": "src/adapter/index.ts",
  },
  format: ["esm"],
  dts: { compilerOptions: { rootDir: "src" } },
  clean: true,
  target: "node20",
  platform: "neutral",
  external: ["@orpc/server", "@orpc/client", "zod", "@valibot/to-json-schema", "arktype", "@standard-schema/spec"],
});

import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: { compilerOptions: { paths: {} } },
  clean: true,
  target: "node20",
  external: [/^@orpc-agent\//, /^@orpc\//],
});

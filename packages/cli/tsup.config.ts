import { defineConfig } from "tsup";

export default defineConfig({
  // `cli` is what bin/orpc-agent.js runs; `loader-child` is spawned by the loader (docs/architecture/spec/cli.md#cli-5-1) and
  // must sit next to the chunk that computes its path, so every entry lands in dist/.
  entry: { index: "src/index.ts", cli: "src/cli.ts", "loader-child": "src/load/child.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts" }, compilerOptions: { paths: {} } },
  clean: true,
  splitting: true,
  target: "node20",
  // Core is a peer (one module instance, docs/architecture/spec/cli.md#cli-3); ink and react are optional and only ever imported
  // through a computed specifier.
  external: [/^@orpc-agent\//, /^@orpc\//, "ink", "react"],
});

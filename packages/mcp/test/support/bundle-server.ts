// A stdio server fixture bundled once per test file, so each child process starts from one plain ES module instead
// of compiling the workspace sources through tsx on every spawn (about a second of CPU per process, which a run
// spawning several servers at once pays on every one of them).
import { join } from "node:path";
import { build } from "tsup";

/**
 * Bundles `entry` (an absolute path) with everything it imports, workspace sources read through the
 * `@orpc-agent/source` condition as under tsx, into `outDir/<name>.mjs`; returns that file's path.
 */
export async function bundleServer(entry: string, outDir: string): Promise<string> {
  const name = "server";
  await build({
    entry: { [name]: entry },
    outDir,
    outExtension: () => ({ js: ".mjs" }),
    format: ["esm"],
    platform: "node",
    target: "node20",
    // Third-party packages too: the file must run from a folder with no node_modules beside it.
    noExternal: [/.*/],
    splitting: false,
    sourcemap: false,
    dts: false,
    config: false,
    silent: true,
    esbuildOptions(options) {
      options.conditions = ["@orpc-agent/source"];
      options.logLevel = "silent";
    },
    // Bundled CommonJS dependencies may still call require for Node built-ins.
    banner: { js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);' },
  });
  return join(outDir, `${name}.mjs`);
}

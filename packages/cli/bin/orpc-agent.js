#!/usr/bin/env node
// The committed launcher (docs/architecture/spec/cli.md#cli-3): runs the build output, or says how to build it and exits 2.
import { existsSync } from "node:fs";

const target = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(target)) {
  process.stderr.write(
    "orpc-agent: the build output is missing (dist/cli.js). Build the package first: `npm run build` in @orpc-agent/cli.\n",
  );
  process.exit(2);
}
const { main } = await import(target.href);
process.exitCode = await main(process.argv.slice(2));

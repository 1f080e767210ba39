// `node --import` this file to run the example on oRPC 2: every bare `@orpc/server` and `@orpc/client` import (and
// subpath) from the example, core and the other workspace files resolves to the lockfile-pinned 2.0 beta installs the
// repository root aliases (orpc-server-v2, orpc-client-v2), like vitest.orpc-v2.config.ts does for the test suites.
// Imports made inside installed packages are left alone, so the 2.0 packages resolve their own dependencies (one
// @orpc/client 2.0 instance on both sides). An app installing oRPC 2 from npm needs none of this.
import { register } from "node:module";

const root = new URL("../../../../package.json", import.meta.url).href;
const hooks = `const ALIASES = { "@orpc/server": "orpc-server-v2", "@orpc/client": "orpc-client-v2" };
export async function resolve(specifier, context, next) {
  const match = /^(@orpc\\/(?:server|client))(\\/.*)?$/.exec(specifier);
  if (match === null || context.parentURL === undefined || context.parentURL.includes("/node_modules/")) return next(specifier, context);
  return next(ALIASES[match[1]] + (match[2] ?? ""), { ...context, parentURL: ${JSON.stringify(root)} });
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

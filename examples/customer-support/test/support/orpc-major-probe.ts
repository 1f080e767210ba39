// Prints which oRPC major built the example's procedures: the `@orpc/server` the example resolves, and the layout of
// a procedure's definition (2.x keeps `inputSchemas` and `metaPlugins`, 1.x an `inputSchema`). Run as a child by
// snapshot-on-both-majors.test.ts, with and without orpc-v2-loader.mjs.
import { createRequire } from "node:module";
import * as server from "@orpc/server";
import { router } from "../../src/api/router.js";

const definition = router.orders.refund["~orpc"] as unknown as Record<string, unknown>;
const serverEntry = import.meta.resolve("@orpc/server");
const manifest = createRequire(serverEntry)("../package.json") as { version: string };
console.log(
  JSON.stringify({
    version: manifest.version,
    defineMeta: typeof (server as Record<string, unknown>).defineMeta === "function",
    metaPlugins: Array.isArray(definition.metaPlugins),
    inputSchemas: Array.isArray(definition.inputSchemas),
    agentDescription: (definition.meta as { agent?: { description?: string } } | undefined)?.agent?.description ?? null,
  }),
);

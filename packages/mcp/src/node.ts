// `@orpc-agent/mcp/node`: the endpoint on `node:http` (and Express / Fastify raw req/res) through `@modelcontextprotocol/node`.
export { toNodeRequestListener } from "./node/to-node-request-listener.js";
export { toNodeHandler } from "./node/deprecated-names.js";

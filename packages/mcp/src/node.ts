// `@orpc-agent/mcp/node`: the endpoint on `node:http` (and Express / Fastify raw req/res) through `@modelcontextprotocol/node`.
export { toNodeHandler } from "./modern/to-node-handler.js";

// @orpc-agent/core/http — a CapabilityClient over oRPC's RPCLink (docs/architecture/spec/distributed.md#distributed-4).
// Imports only @orpc/client and core/client: safe for browser bundles.
export { createHttpCapabilityClient } from "./create-http-client.js";
export type { HttpCapabilityClientOptions } from "./create-http-client.js";
export { CapabilityClientError } from "./client-error.js";

// @orpc-agent/core/http — a CapabilityClient over oRPC's RPCLink (docs/architecture/spec/distributed.md#distributed-4).
// Imports only @orpc/client and core/client: safe for browser bundles.
export { createHTTPCapabilityClient } from "./create-http-client.js";
export type { HTTPCapabilityClientOptions } from "./create-http-client.js";
export { createHttpCapabilityClient } from "./deprecated-names.js";
export type { HttpCapabilityClientOptions } from "./deprecated-names.js";
export { CapabilityClientError } from "./client-error.js";

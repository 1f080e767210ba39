// Old spellings of this entry's names, kept as aliases until the next major: acronyms are upper-case across the
// public API (createMCPServer, toAISDKTools), so `Http` became `HTTP`.
import { createHTTPCapabilityClient, type HTTPCapabilityClientOptions } from "./create-http-client.js";

/** @deprecated Use createHTTPCapabilityClient (acronyms are upper-case across the public API). */
export const createHttpCapabilityClient: typeof createHTTPCapabilityClient = createHTTPCapabilityClient;

/** @deprecated Use HTTPCapabilityClientOptions (acronyms are upper-case across the public API). */
export type HttpCapabilityClientOptions = HTTPCapabilityClientOptions;

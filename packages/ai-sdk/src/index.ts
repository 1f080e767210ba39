// Public entry of @orpc-agent/ai-sdk (adapters.md §2): surface `aiSdk`, one governed tool per capability, over a
// local runtime or a remote CapabilityClient.
export { toAISDKTools } from "./to-ai-sdk-tools.js";
export type { AISDKToolResult, AISDKToolsOptions, RemoteAISDKToolResult, RemoteAISDKToolsOptions } from "./types.js";

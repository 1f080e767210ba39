// Public entry of @orpc-agent/ai-sdk (adapters.md §2): surface `aiSdk`, one governed tool per capability.
export { toAISDKTools } from "./to-ai-sdk-tools.js";
export type { AISDKToolResult, AISDKToolsOptions } from "./types.js";

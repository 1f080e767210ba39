import { toJsonSchema } from "@orpc-agent/core/schema";
export const x = [toJsonSchema];

import type { CapabilityClient } from "@orpc-agent/core/client";
export type X = CapabilityClient;

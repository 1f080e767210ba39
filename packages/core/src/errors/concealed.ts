import { CapabilityError } from "./capability-error.js";

/**
 * Unknown, unexposed and hidden capabilities answer with this one shape, byte for byte (SI-8).
 * Only the audit event's `reason` tells them apart.
 */
export const capabilityNotFound = (): CapabilityError => new CapabilityError({ code: "CAPABILITY_NOT_FOUND" });

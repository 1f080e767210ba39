// Old spellings of this package's names, kept as aliases until the next major: acronyms are upper-case across the
// public API, and DBOS spells itself so (`DBOS` of @dbos-inc/dbos-sdk).
import { createDBOSCapabilitySteps, type DBOSCapabilityStepsOptions } from "./create-dbos-capability-steps.js";
import type { DBOSCapabilitySteps, DBOSInvokeOptions } from "./types.js";

/** @deprecated Use createDBOSCapabilitySteps (acronyms are upper-case across the public API). */
export const createDbosCapabilitySteps: typeof createDBOSCapabilitySteps = createDBOSCapabilitySteps;

/** @deprecated Use DBOSCapabilityStepsOptions. */
export type DbosCapabilityStepsOptions<TContext> = DBOSCapabilityStepsOptions<TContext>;

/** @deprecated Use DBOSCapabilitySteps. */
export type DbosCapabilitySteps = DBOSCapabilitySteps;

/** @deprecated Use DBOSInvokeOptions. */
export type DbosInvokeOptions = DBOSInvokeOptions;

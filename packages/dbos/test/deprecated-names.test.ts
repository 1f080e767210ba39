// The old `Dbos` spellings stay as aliases of the DBOS names until the next major.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createDBOSCapabilitySteps,
  createDbosCapabilitySteps,
  type DBOSCapabilitySteps,
  type DBOSCapabilityStepsOptions,
  type DBOSInvokeOptions,
  type DbosCapabilitySteps,
  type DbosCapabilityStepsOptions,
  type DbosInvokeOptions,
} from "../src/index.js";

describe("@orpc-agent/dbos deprecated names", () => {
  it("createDbosCapabilitySteps is createDBOSCapabilitySteps, and the old type names are the same types", () => {
    expect(createDbosCapabilitySteps).toBe(createDBOSCapabilitySteps);
    expectTypeOf<DbosCapabilitySteps>().toEqualTypeOf<DBOSCapabilitySteps>();
    expectTypeOf<DbosCapabilityStepsOptions<{ tenant: string }>>().toEqualTypeOf<DBOSCapabilityStepsOptions<{ tenant: string }>>();
    expectTypeOf<DbosInvokeOptions>().toEqualTypeOf<DBOSInvokeOptions>();
  });
});

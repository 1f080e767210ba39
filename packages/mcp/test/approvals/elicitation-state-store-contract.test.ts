// The in-memory elicitation state store against the shared contract (issue 48), as @orpc-agent/postgres runs it.
import { describeMCPElicitationStateStoreContract } from "../../../../test-fixtures/mcp-elicitation-state-store-contract.js";
import { createInMemoryElicitationStateStore } from "../../src/approvals/elicitation-state-store.js";

describeMCPElicitationStateStoreContract("in memory", async (limits) =>
  createInMemoryElicitationStateStore({ legacyPending: limits.pending, legacyCapabilities: limits.declaredCapabilities }),
);

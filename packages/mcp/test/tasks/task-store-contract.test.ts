// The in-memory task store against the shared MCP task store contract (issue 47), as @orpc-agent/postgres runs it.
import { describeMCPTaskStoreContract } from "../../../../test-fixtures/mcp-task-store-contract.js";
import { createInMemoryTaskStore } from "../../src/tasks/task-store.js";

describeMCPTaskStoreContract("in memory", async (limits) => createInMemoryTaskStore(limits));

import { createInMemoryApprovalCoordinator } from "../../src/approvals/in-memory-coordinator.js";
import { describeGrantStoreContract } from "../../../../test-fixtures/grant-store-contract.js";

describeGrantStoreContract("SI-13: the in-memory coordinator keeps grants", async (now) => createInMemoryApprovalCoordinator({ now }));

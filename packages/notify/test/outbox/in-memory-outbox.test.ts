import { createInMemoryWebhookOutbox } from "../../src/index.js";
import { describeOutboxContract } from "./outbox-contract.js";

describeOutboxContract("the in-memory outbox", async () => createInMemoryWebhookOutbox());

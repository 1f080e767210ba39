// A non-Zod Standard Schema whose JSON Schema converter the application registers itself.
// The CLI must build the snapshot with this same core instance to see the converter.
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";
import { registerSchemaConverter } from "@orpc-agent/core/schema";

const ticketInput = {
  "~standard": {
    version: 1,
    vendor: "acme-schema",
    validate: (value) => ({ value }),
  },
};

registerSchemaConverter("acme-schema", () => ({
  type: "object",
  properties: { subject: { type: "string" } },
  required: ["subject"],
}));

export const registry = createCapabilityRegistry({
  tickets: {
    open: os
      .input(ticketInput)
      .meta({ agent: { description: "Open a ticket.", expose: { aiSdk: true }, sideEffect: "write", risk: "low" } })
      .handler(() => ({ id: "t_1" })),
  },
});

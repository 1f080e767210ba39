// Two distinct registries in one module: the CLI must refuse to guess.
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";

const meta = (description) => ({ agent: { description, expose: { direct: true }, sideEffect: "read", risk: "low" } });

export const billing = createCapabilityRegistry({ invoices: { list: os.meta(meta("List invoices.")).handler(() => []) } });
export const support = createCapabilityRegistry({ tickets: { list: os.meta(meta("List tickets.")).handler(() => []) } });

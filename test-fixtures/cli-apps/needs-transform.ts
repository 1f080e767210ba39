// A TypeScript enum: type stripping alone cannot load this, a transforming loader can.
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";

enum Risk {
  Low = "low",
}

export const registry = createCapabilityRegistry({
  lights: {
    status: os
      .meta({ agent: { description: "Light status.", expose: { direct: true }, sideEffect: "read", risk: Risk.Low } })
      .handler(() => "on"),
  },
});

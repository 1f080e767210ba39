// Only a factory. Calling it would "connect"; here it writes a sentinel file so a test can prove it never ran.
import { writeFileSync } from "node:fs";
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";

export function makeApp() {
  writeFileSync(process.env.FACTORY_SENTINEL ?? new URL("./.factory-was-called", import.meta.url), "called");
  return createCapabilityRegistry({
    ping: os.meta({ agent: { description: "Ping.", expose: { direct: true }, sideEffect: "none", risk: "low" } }).handler(() => "pong"),
  });
}

// Prints on stdout and stderr while importing; JSON output must stay valid.
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";

console.log("noisy.js: connecting to nothing {\"not\": \"json\"");
process.stdout.write("noisy.js: raw stdout write\n");
console.error("noisy.js: a warning on stderr");

export const registry = createCapabilityRegistry({
  echo: os.meta({ agent: { description: "Echo.", expose: { aiSdk: true }, sideEffect: "none", risk: "low" } }).handler(() => "echo"),
});

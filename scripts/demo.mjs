#!/usr/bin/env node
// `pnpm demo`: the end-to-end demo runs the customer-support example once it exists.
console.log(
  [
    "oRPC Agent demo",
    "",
    "The end-to-end demo arrives with the customer-support example (examples/customer-support).",
    "Until then, `pnpm test` exercises the governed pipeline of @orpc-agent/core.",
  ].join("\n"),
);

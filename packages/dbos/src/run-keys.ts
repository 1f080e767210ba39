import { DBOS } from "@dbos-inc/dbos-sdk";
// Not part of DBOS's documented API (it is exported under "internal/*"); read through a namespace import so a
// DBOS release without it degrades to no duplicate check instead of failing to load.
import * as dbosContext from "@dbos-inc/dbos-sdk/internal/context";

// DBOS runs each execution of a workflow function under its own context object, so keys are tracked per run:
// a recovery or a resumed run starts with no keys used, while a second use within one run is caught.
const keysByRun = new WeakMap<object, Set<string>>();
let warned = false;

/** Records `key` for the calling workflow run; throws `TypeError` when the run already used it (docs/architecture/spec/distributed.md#distributed-9-2). */
export function claimRunKey(key: string): void {
  const currentRun = (dbosContext as { getCurrentContextStore?: () => object | undefined }).getCurrentContextStore;
  if (typeof currentRun !== "function") {
    if (!warned) console.warn("[@orpc-agent/dbos] this DBOS version does not expose its workflow context: duplicate step keys go undetected.");
    warned = true;
    return;
  }
  const run = currentRun();
  if (run === undefined) throw new TypeError("steps.invoke must be called from a DBOS workflow function.");
  let keys = keysByRun.get(run);
  if (keys === undefined) {
    keys = new Set();
    keysByRun.set(run, keys);
  }
  if (keys.has(key)) {
    throw new TypeError(
      `Step key ${JSON.stringify(key)} is already used in workflow ${JSON.stringify(DBOS.workflowID)}: ` +
        "give every steps.invoke call of one run its own key, or it would replay the first call's outcome.",
    );
  }
  keys.add(key);
}

// A workflow process of the crash-recovery tests: node --conditions=@orpc-agent/source --import tsx worker.ts.
// Env: ORPC_DBOS_TEST_URL (its database), ORPC_DBOS_GENERATION (1 = the process that gets killed).
// Args: "start:<workflow>:<workflowId>:<orderId>" starts a workflow as u_dana; "await:<workflowId>" awaits one
// DBOS recovered at launch. Prints READY, the app's markers, and "RESULT <workflowId> <json>" per workflow.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { launchDbos } from "../support/dbos.js";
import { openApp } from "./app.js";

const url = process.env.ORPC_DBOS_TEST_URL!;
const generation = Number(process.env.ORPC_DBOS_GENERATION);
const app = openApp({ url, generation });
const print = (line: string) => process.stdout.write(`${line}\n`);

const workflows: Record<string, (orderId: string) => Promise<unknown>> = {
  /** Two steps; generation 1 dies between them, after step 1's checkpoint. */
  reserveThenShip: DBOS.registerWorkflow(
    async (orderId: string) => {
      const reserved = await app.steps.waiting.invoke("orders.reserve", { orderId }, { key: "reserve" });
      if (generation === 1) {
        print(`AFTER_STEP_1 ${DBOS.workflowID}`);
        await new Promise<never>(() => {});
      }
      const shipped = await app.steps.waiting.invoke("orders.ship", { orderId }, { key: "ship" });
      return { reserved, shipped };
    },
    { name: "crash.reserveThenShip" },
  ),
  reserveTyped: DBOS.registerWorkflow(async (orderId: string) => app.steps.typed.invoke("orders.reserve", { orderId }, { key: "reserve" }), {
    name: "crash.reserveTyped",
  }),
  reserveWaiting: DBOS.registerWorkflow(async (orderId: string) => app.steps.waiting.invoke("orders.reserve", { orderId }, { key: "reserve" }), {
    name: "crash.reserveWaiting",
  }),
  refund: DBOS.registerWorkflow(async (orderId: string) => app.steps.waiting.invoke("orders.refund", { orderId, cents: 2500 }, { key: "refund" }), {
    name: "crash.refund",
  }),
};

await launchDbos(url, { executorID: "dbos-crash-worker" });
print("READY");
for (const arg of process.argv.slice(2)) {
  const [verb, first, workflowId, orderId] = arg.split(":");
  const result: Promise<unknown> =
    verb === "start"
      ? (await DBOS.startWorkflow(workflows[first!]!, { workflowID: workflowId!, authenticatedUser: "u_dana" })(orderId!)).getResult()
      : DBOS.retrieveWorkflow(first!).getResult();
  const id = verb === "start" ? workflowId : first;
  result.then(
    (value) => print(`RESULT ${id} ${JSON.stringify(value)}`),
    (error: unknown) => print(`FAILED ${id} ${(error as Error).message}`),
  );
}

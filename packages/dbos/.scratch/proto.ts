import { DBOS } from "@dbos-inc/dbos-sdk";
const url = "postgres://postgres@127.0.0.1:5432/orpc_agent_dbos_scratch";
let t0 = Date.now();
const wf = DBOS.registerWorkflow(async (x: number) => {
  const a = await DBOS.runStep(async () => { console.log("step1 in", DBOS.workflowID, DBOS.authenticatedUser, DBOS.authenticatedRoles); return { v: x + 1, d: new Date(0) }; }, { name: "s1", retriesAllowed: false });
  const m = await DBOS.recv<string>("topic", { timeoutSeconds: 0.3 });
  console.log("recv", m, a);
  return a;
}, { name: "wf" });
const slow = DBOS.registerWorkflow(async () => {
  const r = await DBOS.runStep(async () => { await new Promise((r) => setTimeout(r, 1500)); console.log("slow step done"); return 1; }, { name: "slow", retriesAllowed: false });
  console.log("after slow step", r);
  return r;
}, { name: "slow" });
DBOS.setConfig({ name: "scratch", systemDatabaseUrl: url, logLevel: "error" });
await DBOS.launch();
console.log("launch ms", Date.now() - t0);
t0 = Date.now();
const h = await DBOS.startWorkflow(wf, { workflowID: "w-" + Date.now(), authenticatedUser: "u_dana", authenticatedRoles: ["r"] })(1);
console.log("result", await h.getResult(), Date.now() - t0);
const h2 = await DBOS.startWorkflow(slow, { workflowID: "s-" + Date.now() })();
setTimeout(() => void DBOS.cancelWorkflow(h2.workflowID), 200);
t0 = Date.now();
try { console.log("slow result", await h2.getResult()); } catch (e) { console.log("slow err", (e as Error).name, (e as Error).message, Date.now() - t0); }
console.log("status", (await DBOS.getWorkflowStatus(h2.workflowID))?.status);
// same id again
const h3 = await DBOS.startWorkflow(wf, { workflowID: h.workflowID })(5);
console.log("again", await h3.getResult());
await DBOS.shutdown();
console.log("done");

// SI-4 across instances: a decision reaches the instance holding the client's connection as a PostgreSQL NOTIFY whose
// payload is the approval id. Anyone who can connect to the database can send that NOTIFY. It must only ever mean
// "look again": the server tells the client its elicitation completed, the client retries, and the retry reads the
// approval's real state in the coordinator. A forged NOTIFY (the pending approval's own id, an unknown id, garbage)
// executes nothing and decides nothing; only `decide` by an approver does.
import { describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, type Actor } from "@orpc-agent/core";
import { createPgApprovalCoordinator, createPgDecisionFeed, pgListenFromClient, type PgListen } from "@orpc-agent/postgres";
import pg from "pg";
import { closeEverythingAfterEachTest, closeAfterTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectRawStdio } from "../../packages/mcp/test/stdio/raw-stdio.js";
import { recordedRefund } from "../../packages/mcp/test/approvals/approvals-app.js";
import { useApprovalsSchema } from "./support/approvals-schema.js";

closeEverythingAfterEachTest();

const db = useApprovalsSchema("orpc_adv_si4_notify");
// A channel of this file's own: other files decide on the default table name in their schemas at the same time.
const CHANNEL = `orpc_adv_si4_notify_${process.pid}`;
const APPROVER: Actor = { id: "u_manager", kind: "user" };
const KEYS = [{ id: "k1", secret: "si-4-forged-notify-secret-0123456789" }];
const COMPLETE = "notifications/elicitation/complete";

type Answer = { result?: { structuredContent?: unknown }; error?: { code?: number; data?: { elicitations?: { url: string; elicitationId: string }[] } } };

/**
 * One instance of the app on the shared database, over stdio to a 2025-11-25 client declaring URL elicitation: the
 * coordinator NOTIFYs its decisions on CHANNEL, and `urlElicitation.decisions` is the PostgreSQL feed.
 */
async function instanceWithClient() {
  const executions: unknown[] = [];
  const registry = createCapabilityRegistry({ payments: { refund: recordedRefund(executions) } });
  const coordinator = createPgApprovalCoordinator({ query: db.query, decisionChannel: CHANNEL });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator } });
  const connection = pgListenFromClient(() => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }), { onError: () => undefined });
  closeAfterTest(() => connection.close());
  const listening: Promise<unknown>[] = [];
  const listen: PgListen = (channel, onPayload, events) => {
    const started = connection(channel, onPayload, events);
    listening.push(started);
    return started;
  };
  const decisions = createPgDecisionFeed({ listen, query: db.query, decisionChannel: CHANNEL });

  const stdio = await connectRawStdio(
    runtime,
    {
      createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }),
      approvals: { url: (record) => `https://approvals.example.test/requests/${record.id}` },
      urlElicitation: { keys: KEYS, decisions },
    },
    "legacy",
    { elicitation: { url: {} } },
  );
  let id = 1;
  /** Calls the refund: -32042 carries the approval's link. */
  const call = async () => {
    const answer = (await stdio.request(id++, "tools/call", { name: "payments_refund", arguments: { orderId: "o1", amount: 5 } })) as Answer;
    const asked = answer.error?.data?.elicitations?.[0];
    return { result: answer.result, code: answer.error?.code, approvalId: asked && new URL(asked.url).pathname.split("/").pop(), elicitationId: asked?.elicitationId };
  };
  const completions = () => stdio.notifications.filter((n) => n.method === COMPLETE).map((n) => (n.params as { elicitationId: string }).elicitationId);

  return {
    runtime,
    coordinator,
    executions,
    call,
    completions,
    /** Once the feed's LISTEN is in effect, a NOTIFY sent now is heard. */
    listening: () => Promise.all(listening),
    /** Waits until `count` completions were sent (a bounded wait for an event, not a timing assertion). */
    untilCompletions: async (count: number) => {
      for (let attempt = 0; completions().length < count; attempt++) {
        if (attempt > 3_000) throw new Error(`fewer than ${count} ${COMPLETE} ever arrived`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

const forge = (payload: string) => db.pool().query("select pg_notify($1, $2)", [CHANNEL, payload]);

describe("SI-4: a forged decision NOTIFY decides nothing", () => {
  it("SI-4: a NOTIFY forged with the pending approval's id tells the client to look again; the retry finds it pending and nothing executes", async () => {
    const app = await instanceWithClient();
    const asked = await app.call();
    expect(asked.code).toBe(-32042);
    await app.listening();

    await forge(asked.approvalId!);
    await app.untilCompletions(1);
    expect(app.completions()).toEqual([asked.elicitationId]);

    const retried = await app.call();
    expect(retried.result).toBeUndefined();
    expect(retried.code).toBe(-32042);
    expect(retried.approvalId).toBe(asked.approvalId);
    expect(app.executions).toEqual([]);
    expect((await app.coordinator.get(asked.approvalId!))?.status).toBe("pending");

    // The real decision, by an approver through decide, is what lets the call run: once.
    await app.listening();
    await app.runtime.approvals.decide(asked.approvalId!, { status: "approved", approver: APPROVER });
    await app.untilCompletions(2);
    const ran = (await app.call()).result!;
    expect(ran.structuredContent).toEqual({ status: "ok", data: { refunded: 5 } });
    expect(app.executions).toHaveLength(1);
  });

  it("SI-4: NOTIFYs of an unknown id, an empty payload and a JSON decision reach no client and approve nothing", async () => {
    const app = await instanceWithClient();
    const asked = await app.call();
    expect(asked.code).toBe(-32042);
    await app.listening();

    await forge("apr_does_not_exist");
    await forge("");
    await forge(JSON.stringify({ id: asked.approvalId, status: "approved", approver: APPROVER }));
    // NOTIFYs arrive in order: once the last one below is heard, the three above were handled and notified no one.
    await forge(asked.approvalId!);
    await app.untilCompletions(1);
    expect(app.completions()).toEqual([asked.elicitationId]);
    expect(app.executions).toEqual([]);
    expect((await app.coordinator.get(asked.approvalId!))?.status).toBe("pending");
  });
});

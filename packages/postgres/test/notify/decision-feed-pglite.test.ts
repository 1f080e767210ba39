// The decision feed over PGlite's own LISTEN (docs/reference/postgres.md#decisions-across-instances): `db.listen` already
// has the PgListen shape, wrapped so PGlite's third parameter (a transaction) never receives the connection events.
import { describe, expect, it } from "vitest";
import { makeApprovalRequest } from "../../../../test-fixtures/approval-coordinator-contract.js";
import { APPROVALS_DDL, createPgApprovalCoordinator, createPgDecisionFeed, type PgListen } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";

describe("createPgDecisionFeed over PGlite", () => {
  const pglite = usePglite(APPROVALS_DDL);

  it("reports the id of each decision, in commit order; a rejection is a decision too", async () => {
    const listening: Promise<unknown>[] = [];
    const listen: PgListen = (channel, onPayload) => {
      const started = pglite.db().listen(channel, onPayload);
      listening.push(started);
      return started;
    };
    const coordinator = createPgApprovalCoordinator({ query: pglite.query });
    const heard: string[] = [];
    let wake: (() => void) | undefined;
    const stop = createPgDecisionFeed({ listen, query: pglite.query })((id) => {
      heard.push(id);
      wake?.();
    });
    await Promise.all(listening);
    const until = (count: number) => new Promise<void>((resolve) => (heard.length >= count ? resolve() : (wake = () => heard.length >= count && resolve())));

    const approved = makeApprovalRequest(new Date(), { id: `apr_pglite_${crypto.randomUUID()}` });
    const rejected = makeApprovalRequest(new Date(), { id: `apr_pglite_${crypto.randomUUID()}` });
    await coordinator.create(approved);
    await coordinator.create(rejected);
    await coordinator.decide(approved.id, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    await coordinator.decide(rejected.id, { status: "rejected", approver: { id: "u_manager", kind: "user" } });
    await until(2);
    expect(heard).toEqual([approved.id, rejected.id]);
    stop();
  });
});

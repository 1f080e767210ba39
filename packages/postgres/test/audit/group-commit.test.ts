import { describe, expect, it } from "vitest";
import { createGroupCommit } from "../../src/audit/group-commit.js";
import { settlement } from "../support/audit-events.js";

// The queue behind every written-through audit row (docs/architecture/spec/postgres.md#postgres-7-1), driven by a
// statement double whose statements the test settles one by one.
function gatedInsert() {
  const statements: { rows: unknown[][]; succeed: () => void; fail: (err: unknown) => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const insert = (rows: unknown[][]) =>
    new Promise<void>((resolve, reject) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const settle = (fn: () => void) => () => {
        inFlight--;
        fn();
      };
      statements.push({ rows, succeed: settle(resolve), fail: (err) => settle(() => reject(err))() });
    });
  return { statements, insert, mostInFlight: () => mostInFlight };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const row = (id: number, width = 10) => [id, ...Array.from({ length: width - 1 }, () => null)];
const ids = (rows: unknown[][]) => rows.map((r) => r[0]);
const bounds = { maxRows: 500, maxParams: 65_535 };

describe("group commit: one statement in flight, the queue in the next", () => {
  it("a row alone at low load travels alone, in a statement set off after the current turn", async () => {
    const db = gatedInsert();
    const group = createGroupCommit(bounds, db.insert);
    const first = settlement(group.write(row(1)));
    expect(db.statements).toHaveLength(0);
    await turn();
    expect(db.statements.map((s) => ids(s.rows))).toEqual([[1]]);
    db.statements[0]!.succeed();
    await turn();
    expect(first.status).toBe("fulfilled");

    // Idle again: the next row sets off its own statement.
    const second = settlement(group.write(row(2)));
    await turn();
    expect(db.statements.map((s) => ids(s.rows))).toEqual([[1], [2]]);
    db.statements[1]!.succeed();
    await turn();
    expect(second.status).toBe("fulfilled");
  });

  it("rows written in one turn share the first statement; rows arriving while it is in flight all go in the next, in arrival order", async () => {
    const db = gatedInsert();
    const group = createGroupCommit(bounds, db.insert);
    const outcomes = [settlement(group.write(row(1))), settlement(group.write(row(2)))];
    await turn();
    for (let id = 3; id <= 7; id++) {
      outcomes.push(settlement(group.write(row(id))));
      await turn();
    }
    // Five rows arrived over five turns, but only one statement is ever in flight.
    expect(db.statements.map((s) => ids(s.rows))).toEqual([[1, 2]]);
    expect(outcomes.map((o) => o.status)).toEqual(Array(7).fill("pending"));

    db.statements[0]!.succeed();
    await turn();
    expect(db.statements.map((s) => ids(s.rows))).toEqual([[1, 2], [3, 4, 5, 6, 7]]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", ...Array(5).fill("pending")]);
    db.statements[1]!.succeed();
    await turn();
    expect(outcomes.map((o) => o.status)).toEqual(Array(7).fill("fulfilled"));
    expect(db.mostInFlight()).toBe(1);
  });

  it("a failed statement rejects exactly the rows it carried, with its error; the rows queued behind it are still written", async () => {
    const db = gatedInsert();
    const group = createGroupCommit(bounds, db.insert);
    const carried = [settlement(group.write(row(1))), settlement(group.write(row(2)))];
    await turn();
    const behind = [settlement(group.write(row(3))), settlement(group.write(row(4)))];
    const failure = new Error("violates check constraint");
    db.statements[0]!.fail(failure);
    await turn();
    expect(carried.map((o) => [o.status, o.reason])).toEqual([
      ["rejected", failure],
      ["rejected", failure],
    ]);
    expect(behind.map((o) => o.status)).toEqual(["pending", "pending"]);
    expect(ids(db.statements[1]!.rows)).toEqual([3, 4]);
    db.statements[1]!.succeed();
    await turn();
    expect(behind.map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
  });

  it("an insert that throws synchronously rejects the rows it was given, and the writer goes on", async () => {
    const failure = new Error("driver threw");
    let calls = 0;
    const group = createGroupCommit(bounds, () => {
      calls++;
      if (calls === 1) throw failure;
      return Promise.resolve();
    });
    const first = group.write(row(1));
    await expect(first).rejects.toBe(failure);
    await expect(group.write(row(2))).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe("group commit: bounds", () => {
  it("takes at most maxRows rows per statement, oldest first", async () => {
    const db = gatedInsert();
    const group = createGroupCommit({ maxRows: 3, maxParams: 65_535 }, db.insert);
    const writes = Array.from({ length: 7 }, (_, i) => group.write(row(i + 1)));
    await turn();
    db.statements[0]!.succeed();
    await turn();
    db.statements[1]!.succeed();
    await turn();
    db.statements[2]!.succeed();
    await Promise.all(writes);
    expect(db.statements.map((s) => ids(s.rows))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it("counts every row at the width of the widest row in its statement, and never exceeds maxParams", async () => {
    const db = gatedInsert();
    const group = createGroupCommit({ maxRows: 500, maxParams: 40 }, db.insert);
    // Widths 10, 10, 10, 15, 10: three 10-wide rows fit (30); a fourth at width 15 would count 60.
    const writes = [group.write(row(1)), group.write(row(2)), group.write(row(3)), group.write(row(4, 15)), group.write(row(5))];
    await turn();
    db.statements[0]!.succeed();
    await turn();
    db.statements[1]!.succeed();
    await Promise.all(writes);
    expect(db.statements.map((s) => ids(s.rows))).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    for (const { rows } of db.statements) expect(rows.length * Math.max(...rows.map((r) => r.length))).toBeLessThanOrEqual(40);
  });

  it("at PostgreSQL's 65 535 bind parameters: 6553 rows of 10 in one statement, 4369 rows of 15", async () => {
    for (const [width, fits] of [
      [10, 6553],
      [15, 4369],
    ] as const) {
      const db = gatedInsert();
      const group = createGroupCommit({ maxRows: 10_000, maxParams: 65_535 }, db.insert);
      const writes = Array.from({ length: fits + 1 }, (_, i) => group.write(row(i, width)));
      await turn();
      db.statements[0]!.succeed();
      await turn();
      db.statements[1]!.succeed();
      await Promise.all(writes);
      expect(db.statements.map((s) => s.rows.length)).toEqual([fits, 1]);
    }
  });
});

describe("group commit: settled() is exact", () => {
  it("waits for every row handed in before it, not for rows after it, and never rejects", async () => {
    const db = gatedInsert();
    const group = createGroupCommit(bounds, db.insert);
    await expect(group.settled()).resolves.toBeUndefined();

    const early = [group.write(row(1)).catch(() => {}), group.write(row(2)).catch(() => {})];
    await turn();
    const third = group.write(row(3));
    const beforeThird = settlement(group.settled());
    const fourth = group.write(row(4));
    const afterFourth = settlement(group.settled());

    db.statements[0]!.fail(new Error("connection terminated"));
    await turn();
    // The first statement failed, and the third row (before the first settled()) still waits in the next one.
    expect([beforeThird.status, afterFourth.status]).toEqual(["pending", "pending"]);
    expect(ids(db.statements[1]!.rows)).toEqual([3, 4]);
    db.statements[1]!.succeed();
    await Promise.all([...early, third, fourth]);
    await turn();
    expect([beforeThird.status, afterFourth.status]).toEqual(["fulfilled", "fulfilled"]);

    // A settled() taken while a later statement is in flight does not wait for rows handed in after it.
    const fifth = group.write(row(5));
    await turn();
    const upToFifth = settlement(group.settled());
    const sixth = settlement(group.write(row(6)));
    db.statements[2]!.succeed();
    await fifth;
    await turn();
    expect(upToFifth.status).toBe("fulfilled");
    expect(sixth.status).toBe("pending");
    db.statements[3]!.succeed();
    await turn();
    expect(sixth.status).toBe("fulfilled");
  });
});

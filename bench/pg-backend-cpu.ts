// CPU time of the PostgreSQL backends serving the bench's audit pools, read from /proc (a server on this machine,
// as the embedded one and CI's local one are): throughput on a busy 2-core machine moves with everyone's load,
// CPU per call much less. Best effort: undefined where /proc cannot be read.
import { readFileSync } from "node:fs";
import type { PgQuery } from "@orpc-agent/postgres";

/** CPU milliseconds so far of each backend whose connection carries `applicationName`. */
export async function backendCpu(query: PgQuery, applicationName: string): Promise<Map<number, number> | undefined> {
  const { rows } = await query("select pid from pg_stat_activity where application_name = $1", [applicationName]);
  const cpu = new Map<number, number>();
  for (const row of rows) {
    const pid = Number(row.pid);
    try {
      // Fields 14 and 15 (utime, stime), after the parenthesised command name; in Linux's USER_HZ ticks (100 a second).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      return undefined;
    }
  }
  return cpu;
}

/** The CPU the backends spent between two readings; a backend that appeared in between counts from zero. */
export function cpuSpent(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

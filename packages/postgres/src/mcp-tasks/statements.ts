// The MCP task store's statements over a validated table name. Instants are epoch milliseconds (the store's own
// unit), sent as text and compared as bigint, so the database clock never decides an expiry.
export function mcpTaskStatements(table: string) {
  return {
    // A task id carries 128 random bits, so a conflict is a retried create of the same task: it overwrites, as the
    // in-memory store's `set` does.
    create: `insert into ${table} (principal, task_id, record, version, expires_at)
values ($1, $2, $3::jsonb, $4::bigint, $5::bigint)
on conflict (principal, task_id) do update set record = excluded.record, version = excluded.version, expires_at = excluded.expires_at`,
    get: `select record::text as record, version::text as version, expires_at::text as expires_at from ${table} where principal = $1 and task_id = $2`,
    deleteExpired: `delete from ${table} where principal = $1 and task_id = $2 and expires_at <= $3::bigint`,
    // The compare-and-set every transition uses: one conditional UPDATE, so of two writers holding the same version
    // exactly one changes the row (the poller that resumes, or the cancel that ends it).
    update: `update ${table} set record = $4::jsonb, version = version + 1, expires_at = $5::bigint
where principal = $1 and task_id = $2 and version = $3::bigint returning version::text as version`,
    pruneExpired: `delete from ${table} where expires_at <= $1::bigint`,
    // The principal's oldest tasks beyond its cap.
    prunePrincipal: `delete from ${table} where principal = $1 and seq in (
  select seq from ${table} where principal = $1 order by seq desc offset $2::bigint)`,
    // Beyond the total cap, the oldest tasks of the largest holder give way (as in memory: abandoned tasks cost
    // their own principal first).
    pruneTotal: `delete from ${table} where seq in (
  select seq from ${table} where principal = (
    select principal from ${table} group by principal order by count(*) desc, min(seq) limit 1)
  order by seq limit greatest((select count(*) from ${table}) - $1::bigint, 0))
returning seq::text as seq`,
  };
}

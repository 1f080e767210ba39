// The MCP elicitation state store's statements over a validated table name. `kind` separates the two kinds of entry
// ('pending' retries, 'capabilities' declarations), each with its own bounds. Instants are epoch milliseconds on the
// adapter's clock, sent as text and compared as bigint, so the database clock never decides an expiry.
export function mcpElicitationStatements(table: string) {
  return {
    // Absent once expired: the read filters, the next write deletes.
    get: `select record::text as record from ${table}
where kind = $1 and principal = $2 and entry_key = $3 and (expires_at is null or expires_at > $4::bigint)`,
    delete: `delete from ${table} where kind = $1 and principal = $2 and entry_key = $3`,
    // One round trip: the upsert (a replaced entry becomes its principal's newest, as in memory), every expired row,
    // and the principal's oldest entries of this kind beyond its bound, the written one counted. All parts see the
    // table as it was before the statement, so `held` and `removed` tell the caller whether the total bound may be
    // passed (then, and only then, `pruneTotal` follows).
    set: `with stored as (
  insert into ${table} (kind, principal, entry_key, record, expires_at)
  values ($1, $2, $3, $4::jsonb, $5::bigint)
  on conflict (kind, principal, entry_key) do update set record = excluded.record, expires_at = excluded.expires_at, seq = default
  returning 1
), expired as (
  delete from ${table} where expires_at <= $6::bigint and not (kind = $1 and principal = $2 and entry_key = $3)
  returning kind
), crowded as (
  delete from ${table} where kind = $1 and principal = $2 and entry_key <> $3 and seq in (
    select seq from ${table} where kind = $1 and principal = $2 and entry_key <> $3 order by seq desc offset $7::bigint)
  returning kind
)
select (select count(*) from ${table} where kind = $1)::text as held,
  ((select count(*) from expired where kind = $1) + (select count(*) from crowded))::text as removed,
  (select count(*) from stored)::text as stored`,
    // Beyond the total bound, the least recently set entries of the largest holder give way (its most recent write
    // the oldest among equal holders), so no principal pays while another holds more.
    pruneTotal: `delete from ${table} where kind = $1 and seq in (
  select seq from ${table} where kind = $1 and principal = (
    select principal from ${table} where kind = $1 group by principal order by count(*) desc, max(seq) limit 1)
  order by seq limit greatest((select count(*) from ${table} where kind = $1) - $2::bigint, 0))
returning seq::text as seq`,
  };
}

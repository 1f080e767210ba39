/** Every statement of the PostgreSQL outbox, one per operation; instants travel as ISO text, read as epoch ms. */
export function outboxStatements(table: string) {
  const columns = `endpoint, id, type, body, status, attempts, claim, last_status, last_error,
    (extract(epoch from created_at) * 1000)::float8 as created_at_ms,
    (extract(epoch from next_attempt_at) * 1000)::float8 as next_attempt_at_ms,
    (extract(epoch from delivered_at) * 1000)::float8 as delivered_at_ms`;
  return {
    enqueue: `insert into ${table} (endpoint, id, type, body, created_at, next_attempt_at)
  values ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz)
  on conflict (endpoint, id) do nothing
  returning id`,
    // One statement: the inner select locks due rows and skips those another claim is locking right now, so
    // concurrent drainers on any number of connections split the due rows between them and never share one.
    claim: `update ${table} set attempts = attempts + 1, locked_until = $3::timestamptz, claim = $4
  where (endpoint, id) in (
    select endpoint, id from ${table}
    where endpoint = $1 and status = 'pending' and next_attempt_at <= $6::timestamptz
      and (locked_until is null or locked_until <= $2::timestamptz)
    order by next_attempt_at, id
    limit $5::bigint
    for update skip locked)
  returning ${columns}`,
    delivered: `update ${table} set status = 'delivered', delivered_at = $4::timestamptz, last_status = $5::integer,
    last_error = null, locked_until = null, claim = null
  where endpoint = $1 and id = $2 and claim = $3 and status = 'pending'
  returning id`,
    retry: `update ${table} set next_attempt_at = $4::timestamptz, last_status = $5::integer, last_error = $6,
    locked_until = null, claim = null
  where endpoint = $1 and id = $2 and claim = $3 and status = 'pending'
  returning id`,
    failed: `update ${table} set status = 'failed', last_status = $4::integer, last_error = $5, locked_until = null, claim = null
  where endpoint = $1 and id = $2 and claim = $3 and status = 'pending'
  returning id`,
    nextDue: `select (extract(epoch from min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at)))) * 1000)::float8 as due_ms
  from ${table} where endpoint = $1 and status = 'pending'`,
    get: `select ${columns} from ${table} where endpoint = $1 and id = $2`,
    list: `select ${columns} from ${table}
  where ($1::text is null or endpoint = $1) and ($2::text is null or status = $2)
  order by created_at, id
  limit $3::bigint`,
  };
}

import { PGlite } from "@electric-sql/pglite";
const t = Date.now();
const db = new PGlite();
const r = await db.query("select (extract(epoch from $1::timestamptz) * 1000)::float8 as ms, $2::jsonb::text as j, null::jsonb::text as n", ["2030-01-01T00:00:00.123Z", JSON.stringify("abc")]);
console.log(r.rows, Date.now() - t);
await db.close();

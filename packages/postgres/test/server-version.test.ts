// The real-server suites run against PostgreSQL itself (TEST_DATABASE_URL, or the server the test run starts).
import pg from "pg";
import { expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./support/real-server.js";

it("the real-server suites talk to a PostgreSQL server: select version() says PostgreSQL", async () => {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>("select version()");
    expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
  } finally {
    await client.end();
  }
});

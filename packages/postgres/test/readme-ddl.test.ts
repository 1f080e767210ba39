// The README prints the tables it tells readers to query; this keeps the printed DDL equal to the exported one.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { APPROVALS_DDL, AUDIT_CHAIN_DDL, AUDIT_DDL, INVOCATIONS_DDL } from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const sqlBlocks = [...readme.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]);

it.each([
  ["APPROVALS_DDL", APPROVALS_DDL],
  ["AUDIT_DDL", AUDIT_DDL],
  ["AUDIT_CHAIN_DDL", AUDIT_CHAIN_DDL],
  ["INVOCATIONS_DDL", INVOCATIONS_DDL],
])("README.md prints %s verbatim in a sql block", (_name, ddl) => {
  expect(sqlBlocks.some((block) => block?.includes(ddl.trim()))).toBe(true);
});

import { describeValue } from "../internal/describe-value.js";
import { isPlainObject } from "../internal/plain-object.js";
import { isOrpcLazy } from "../orpc/procedure.js";
import { checkToolNameCollisions } from "./collisions.js";
import { buildRegistry } from "./registry-object.js";
import { checkSchemaConvertibility } from "./schema-convertibility.js";
import type { CapabilityDefs, CapabilityRegistry } from "./types.js";
import { createRegistryValidationError } from "./validation-error.js";
import { LAZY_PROBLEM, walkCapabilityDefs } from "./walk.js";

/**
 * Collects the procedures of a router that carry `meta.agent` into an immutable registry, in
 * depth-first own-key order. Every problem (bad meta, lazy procedures, event-iterator inputs, tool-name
 * collisions, unconvertible input schemas) is collected and thrown as one `Error` with a
 * `problems` list: a startup failure, never a first-call one (docs/architecture/spec/core.md#core-2).
 *
 * @example
 * import type { AnyProcedure } from "@orpc/server";
 * import { createCapabilityRegistry } from "@orpc-agent/core";
 * declare const refund: AnyProcedure, list: AnyProcedure; // procedures with `.meta(agentMeta({ ... }))`
 * const registry = createCapabilityRegistry({ orders: { refund, list } });
 * registry.ids(); // ["orders.refund", "orders.list"]
 */
export function createCapabilityRegistry(defs: CapabilityDefs): CapabilityRegistry {
  if (typeof defs !== "object" || defs === null || Array.isArray(defs)) {
    throw new TypeError(
      `createCapabilityRegistry(defs): defs must be an object of oRPC procedures and nested objects, got ${describeValue(defs)}`,
    );
  }
  const problems: string[] = [];
  if (isOrpcLazy(defs)) {
    problems.push(`(root): ${LAZY_PROBLEM}`);
  } else if ("~orpc" in defs) {
    problems.push("(root): defs is itself an oRPC procedure or contract; place procedures under named keys, e.g. { refund }");
  } else if (!isPlainObject(defs)) {
    throw new TypeError("createCapabilityRegistry(defs): defs must be a plain object of oRPC procedures and nested objects");
  }
  if (problems.length > 0) throw createRegistryValidationError(problems);

  const { capabilities, excluded } = walkCapabilityDefs(defs, problems);
  checkToolNameCollisions(capabilities, problems);
  checkSchemaConvertibility(capabilities, problems);
  if (problems.length > 0) throw createRegistryValidationError(problems);
  return buildRegistry(capabilities, excluded);
}

import { jsonSchema } from "ai";
import type { CapabilityDescriptor, CapabilityRegistry } from "@orpc-agent/core";

/** What `tool({ inputSchema })` takes from `jsonSchema()`, whatever the `ai` major names it. */
export type ToolInputSchema = ReturnType<typeof jsonSchema>;

// The schema parameter of `jsonSchema` differs in width across `ai` majors; naming it this way names none.
type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/** `jsonSchema(schema)` with no `validate` (adapters.md §2.3): raw arguments reach the runtime, the one validator. */
export function toolInputSchema(schema: object): ToolInputSchema {
  return jsonSchema(schema as JsonSchemaInput);
}

// `jsonSchema()` builds an object with a getter and symbol keys, about 1 µs each on Node 20: as much as the
// whole describe of that capability. A capability's input schema is static per registry and says nothing about
// who may see it, so its wrapper is built once and shared, deeply frozen so no tool set can change another's.
const wrappersByRegistry = new WeakMap<CapabilityRegistry, Map<string, ToolInputSchema>>();

/** The shared, frozen input schemas of the local descriptors of `registry`, looked up once per build. */
export function sharedInputSchemas(registry: CapabilityRegistry): (descriptor: CapabilityDescriptor) => ToolInputSchema {
  let wrappers = wrappersByRegistry.get(registry);
  if (wrappers === undefined) wrappersByRegistry.set(registry, (wrappers = new Map()));
  const byId = wrappers;
  return (descriptor) => {
    let wrapper = byId.get(descriptor.id);
    if (wrapper === undefined) {
      // describe hands out a fresh copy per call, so freezing this one touches nothing anyone else holds.
      wrapper = Object.freeze(toolInputSchema(deepFreeze(descriptor.inputSchema)));
      byId.set(descriptor.id, wrapper);
    }
    return wrapper;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

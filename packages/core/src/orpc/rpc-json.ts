import * as client from "@orpc/client";
import * as standard from "@orpc/client/standard";

// oRPC's RPC JSON encoding, in the 1.x form on either major: 1.x tags a value's type with a number, 2.x with a
// name, but both list the same types at the same paths in the same order. Storing the 1.x form keeps journal rows
// readable after an upgrade (docs/architecture/spec/distributed.md#distributed-5-3).

export type RpcJson = { json: unknown; meta: unknown[] };

type V1Serializer = {
  serialize(value: unknown): [unknown, unknown[], unknown[], Blob[]];
  deserialize(json: unknown, meta: unknown[]): unknown;
};
type V2Serializer = {
  serialize(value: unknown): { json: unknown; meta?: unknown[]; blobs?: Blob[] };
  deserialize(serialized: { json: unknown; meta?: unknown[] }): unknown;
};

const CODE_OF: Readonly<Record<string, number>> = { bigint: 0, date: 1, nan: 2, undefined: 3, url: 4, regexp: 5, set: 6, map: 7 };
const NAME_OF: readonly string[] = Object.keys(CODE_OF);

const V1 = (standard as unknown as { StandardRPCJsonSerializer?: new () => V1Serializer }).StandardRPCJsonSerializer;
const V2 = (client as unknown as { RPCJsonSerializer?: new () => V2Serializer }).RPCJsonSerializer;
const v1 = V1 === undefined ? undefined : new V1();
const v2 = v1 !== undefined || V2 === undefined ? undefined : new V2();

function retag(meta: readonly unknown[], map: (tag: unknown) => unknown): unknown[] {
  return meta.map((entry) => {
    const [tag, ...path] = entry as unknown[];
    return [map(tag), ...path];
  });
}

/** Encodes a value as plain JSON data, or throws when it holds something RPC JSON cannot carry (a Blob). */
export function encodeRpcJson(value: unknown): RpcJson {
  if (v1 !== undefined) {
    const [json, meta, , blobs] = v1.serialize(value);
    if (blobs.length > 0) throw new TypeError("Files and blobs cannot be journaled.");
    return { json, meta };
  }
  const out = serializerV2().serialize(value);
  if ((out.blobs?.length ?? 0) > 0) throw new TypeError("Files and blobs cannot be journaled.");
  return {
    json: out.json,
    meta: retag(out.meta ?? [], (tag) => {
      const code = CODE_OF[tag as string];
      if (code === undefined) throw new TypeError(`RPC JSON type ${String(tag)} has no 1.x form and cannot be journaled.`);
      return code;
    }),
  };
}

export function decodeRpcJson(encoded: RpcJson): unknown {
  const meta = encoded.meta ?? [];
  if (v1 !== undefined) return v1.deserialize(encoded.json, meta);
  return serializerV2().deserialize({
    json: encoded.json,
    meta: retag(meta, (tag) => {
      const name = typeof tag === "number" ? NAME_OF[tag] : undefined;
      if (name === undefined) throw new TypeError(`Journaled RPC JSON carries an unknown type tag ${String(tag)}.`);
      return name;
    }),
  });
}

function serializerV2(): V2Serializer {
  if (v2 === undefined) throw new Error("@orpc/client exposes neither StandardRPCJsonSerializer (1.x) nor RPCJsonSerializer (2.x).");
  return v2;
}

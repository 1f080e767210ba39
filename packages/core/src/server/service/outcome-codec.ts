import type { RemoteExecutionResult } from "../../client/types.js";
import { decodeRpcJson, encodeRpcJson, type RpcJson } from "../../orpc/rpc-json.js";
import type { JournalOutcome } from "../journal/types.js";

// Outcomes are stored through oRPC's RPC JSON serializer, the encoding the wire uses, so a replay is
// type-identical to the first response (Date, Map, Set, bigint survive); docs/architecture/spec/distributed.md#distributed-5-3.

export { decodeRpcJson, encodeRpcJson };

const utf8 = new TextEncoder();

/**
 * The journal form of an envelope. A completed output larger than `maxOutputBytes` is stored without it and
 * replays with `outputWithheld: true`: bounded rows, truthful status (docs/architecture/spec/distributed.md#distributed-5-3).
 */
export function encodeOutcome(result: Exclude<RemoteExecutionResult, { status: "outcome-unknown" }>, maxOutputBytes: number): JournalOutcome {
  let body = encodeRpcJson(result);
  if (result.status === "completed") {
    const output = (body.json as { output?: unknown }).output;
    if (output !== undefined && utf8.encode(JSON.stringify(output) ?? "").byteLength > maxOutputBytes) {
      const { output: _withheld, ...rest } = result;
      body = encodeRpcJson({ ...rest, outputWithheld: true });
    }
  }
  return { status: result.status, executionId: result.executionId, body };
}

/** The stored envelope as a replay: `replayed: true`, everything else as first answered. */
export function decodeOutcome<O>(outcome: JournalOutcome): RemoteExecutionResult<O> {
  const envelope = decodeRpcJson(outcome.body as RpcJson) as Exclude<RemoteExecutionResult<O>, { status: "outcome-unknown" }>;
  return { ...envelope, replayed: true };
}

import type { Context } from "@orpc/server";
import { RPCHandler } from "@orpc/server/fetch";
import type { CapabilityClient } from "../../client/types.js";
import { createHTTPCapabilityClient } from "../../http/create-http-client.js";
import type { CapabilityRouter } from "./types.js";

const ORIGIN = "http://in-process.invalid";

/**
 * A `CapabilityClient` that calls a capability router in this process, through the same RPC encoding,
 * handler and error mapping an HTTP client meets, without a socket. For tests.
 *
 * @example
 * import { createInProcessCapabilityClient, type CapabilityRouter } from "@orpc-agent/core/server";
 * declare const router: CapabilityRouter<{ headers: Headers }>; // from createCapabilityRouter({ ... })
 * const client = createInProcessCapabilityClient(router, { context: { headers: new Headers() } });
 */
export function createInProcessCapabilityClient<TReq extends Context>(router: CapabilityRouter<TReq>, o: { context: TReq }): CapabilityClient {
  if (typeof o !== "object" || o === null || !("context" in o)) throw new TypeError("createInProcessCapabilityClient: options must be { context }.");
  const handler = new RPCHandler({ agent: router });
  return createHTTPCapabilityClient({
    url: `${ORIGIN}/rpc`,
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const { matched, response } = await handler.handle(request, { prefix: "/rpc", context: o.context });
      return matched ? response : new Response(null, { status: 404 });
    },
  });
}

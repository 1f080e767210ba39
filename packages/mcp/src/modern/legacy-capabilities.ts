import type { AuthInfo, Server, Transport } from "@modelcontextprotocol/server";
import type { ApprovalElicitation } from "./elicitation-config.js";

type Capabilities = { elicitation?: { url?: unknown } } | undefined;

/**
 * A stateless 2025-era endpoint serves `initialize` and the later `tools/call` on different server instances, so
 * what the client declared is remembered per bearer token (never without one: unauthenticated clients are not
 * told apart) until the token expires. Wraps `connect` to see the `initialize` message with its verified auth.
 */
export function rememberLegacyCapabilities(server: Server, elicitation: ApprovalElicitation): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; params?: { capabilities?: unknown } };
      const authInfo = extra?.authInfo;
      if (m.method === "initialize" && authInfo !== undefined && authInfo.token.length > 0) {
        const expiresAtMs = typeof authInfo.expiresAt === "number" ? authInfo.expiresAt * 1000 : Number.POSITIVE_INFINITY;
        elicitation.legacyCapabilities.set(authInfo.token, { capabilities: m.params?.capabilities, expiresAtMs });
      }
      deliver.call(transport, message, extra);
    };
  };
}

/** Whether a 2025-era client declared URL elicitation: on this connection (stdio), else remembered for its token. */
export function legacyUrlCapable(server: Server, elicitation: ApprovalElicitation, authInfo: AuthInfo | undefined): boolean {
  if (declaresUrl(server.getClientCapabilities())) return true;
  if (authInfo === undefined) return false;
  const remembered = elicitation.legacyCapabilities.get(authInfo.token);
  if (remembered === undefined) return false;
  if (!(remembered.expiresAtMs > Date.now())) {
    elicitation.legacyCapabilities.delete(authInfo.token);
    return false;
  }
  return declaresUrl(remembered.capabilities);
}

export function declaresUrl(capabilities: unknown): boolean {
  const url = (capabilities as Capabilities)?.elicitation?.url;
  return typeof url === "object" && url !== null;
}

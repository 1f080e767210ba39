import type { AuthInfo, Server, Transport } from "@modelcontextprotocol/server";
import { DECLARED_CAPABILITIES, type ApprovalElicitation } from "../approvals/elicitation-config.js";

type Capabilities = { elicitation?: { url?: unknown } } | undefined;

/**
 * A stateless 2025-era endpoint serves `initialize` and the later `tools/call` on different server instances, so
 * what the client declared is remembered for the principal `createContext` resolves the `initialize` to (SI-3:
 * never by bearer text, which two principals can share or lack), until its token expires. Wraps `connect` to see
 * the `initialize` message with its verified auth; the message reaches the SDK once the declaration is remembered,
 * so the client's next call finds it.
 */
export function rememberLegacyCapabilities(
  server: Server,
  elicitation: ApprovalElicitation,
  judge: (authInfo: AuthInfo | undefined) => Promise<string | undefined>,
): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; params?: { capabilities?: unknown } };
      if (m.method !== "initialize") return deliver.call(transport, message, extra);
      const authInfo = extra?.authInfo;
      void judge(authInfo)
        .then((principal) => {
          if (principal !== undefined) {
            const expiresAt = authInfo?.expiresAt;
            const expiresAtMs = typeof expiresAt === "number" ? expiresAt * 1000 : Number.POSITIVE_INFINITY;
            elicitation.legacyCapabilities.set(principal, DECLARED_CAPABILITIES, { capabilities: m.params?.capabilities, expiresAtMs });
          }
          deliver.call(transport, message, extra);
        })
        .catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
    };
  };
}

/** Whether a 2025-era client declared URL elicitation: on this connection (stdio), else remembered for its principal. */
export function legacyUrlCapable(server: Server, elicitation: ApprovalElicitation, principal: string): boolean {
  if (declaresUrl(server.getClientCapabilities())) return true;
  const remembered = elicitation.legacyCapabilities.get(principal, DECLARED_CAPABILITIES);
  if (remembered === undefined) return false;
  if (!(remembered.expiresAtMs > Date.now())) {
    elicitation.legacyCapabilities.delete(principal, DECLARED_CAPABILITIES);
    return false;
  }
  return declaresUrl(remembered.capabilities);
}

export function declaresUrl(capabilities: unknown): boolean {
  const url = (capabilities as Capabilities)?.elicitation?.url;
  return typeof url === "object" && url !== null;
}

import type { AuthInfo, Server, Transport } from "@modelcontextprotocol/server";
import type { ApprovalElicitation } from "../approvals/elicitation-config.js";

type Capabilities = { elicitation?: { url?: unknown } } | undefined;

/**
 * A stateless 2025-era endpoint serves `initialize` and the later `tools/call` on different server instances, so
 * what the client declared is remembered for the principal `createContext` resolves the `initialize` to (SI-3:
 * never by bearer text, which two principals can share or lack), until its token expires, in the endpoint's
 * elicitation state store (shared by every instance when configured so). Wraps `connect` to see the `initialize`
 * message with its verified auth; the message reaches the SDK once the store has the declaration, so the client's
 * next call finds it, whichever instance serves it.
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
        .then(async (principal) => {
          if (principal !== undefined) {
            const expiresAt = authInfo?.expiresAt;
            // Only what is read back is kept: the client's object is its own, of any size and content, and the
            // store is shared by every principal.
            const capabilities = declaresUrl(m.params?.capabilities) ? { elicitation: { url: {} } } : {};
            const declared = { capabilities, ...(typeof expiresAt === "number" && { expiresAt: expiresAt * 1000 }) };
            // A store that cannot write costs the client only URL elicitation: its calls answer with the envelope.
            await elicitation.state.setDeclaredCapabilities(principal, declared).catch((error: unknown) => transport.onerror?.(asError(error)));
          }
          deliver.call(transport, message, extra);
        })
        .catch((error: unknown) => transport.onerror?.(asError(error)));
    };
  };
}

/** Whether a 2025-era client declared URL elicitation: on this connection (stdio), else remembered for its principal. */
export async function legacyUrlCapable(server: Server, elicitation: ApprovalElicitation, principal: string): Promise<boolean> {
  if (declaresUrl(server.getClientCapabilities())) return true;
  // Unreadable counts as undeclared: the call then answers with the envelope, which every client can follow.
  const remembered = await elicitation.state.getDeclaredCapabilities(principal, Date.now()).catch(() => undefined);
  return remembered !== undefined && declaresUrl(remembered.capabilities);
}

export function declaresUrl(capabilities: unknown): boolean {
  const url = (capabilities as Capabilities)?.elicitation?.url;
  return typeof url === "object" && url !== null;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

// The old name of this entry's Node adapter, kept as an alias until the next major.
import { toNodeRequestListener } from "./to-node-request-listener.js";

/**
 * @deprecated Use {@link toNodeRequestListener}. This name is the MCP SDK's own `toNodeHandler`
 * (`@modelcontextprotocol/node`), which takes another argument.
 */
export const toNodeHandler: typeof toNodeRequestListener = toNodeRequestListener;

// The v2 client's own OAuth discovery against our endpoint: 401 → WWW-Authenticate resource_metadata → the RFC 9728
// document → the authorization server named there (a test AS on loopback) → client_credentials token for this
// resource → the call succeeds. The AS records what the client asked for.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "../../src/http/create-handler.js";
import { createTestApp, dana } from "../support/app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import { listenModern, nowInSeconds } from "../support/handler.js";

closeEverythingAfterEachTest();

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A minimal authorization server: RFC 8414 metadata and a client_credentials token endpoint for one client. */
async function startAuthorizationServer() {
  const issued = new Map<string, { resource: string | null }>();
  const tokenRequests: URLSearchParams[] = [];
  const server = createServer(async (req, res) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === "/.well-known/oauth-authorization-server") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ["code"],
          grant_types_supported: ["client_credentials"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        }),
      );
      return;
    }
    if (req.url === "/token" && req.method === "POST") {
      const form = new URLSearchParams(await readBody(req));
      tokenRequests.push(form);
      const token = `at-${issued.size + 1}`;
      issued.set(token, { resource: form.get("resource") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 3600, scope: "mcp" }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closeAfterTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { issuer, issued, tokenRequests };
}

describe("OAuth discovery by the v2 client", () => {
  it("follows the 401 challenge to the RFC 9728 document, gets a token for this resource and calls", async () => {
    const as = await startAuthorizationServer();
    const fetchedMetadata: string[] = [];
    const { url } = await listenModern((endpoint) => {
      const handler = createMCPHandler(createTestApp().runtime, {
        resource: endpoint,
        authorizationServers: [as.issuer],
        scopesSupported: ["mcp"],
        verifyToken: (token) => {
          const grant = as.issued.get(token);
          return grant === undefined ? null : { token, clientId: "reporting-job", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, ...(grant.resource !== null && { resource: new URL(grant.resource) }) };
        },
        createContext: ({ authInfo }) => (authInfo ? { actor: dana, context: { tenant: "t1" } } : null),
      });
      return {
        fetch: (request) => {
          if (new URL(request.url).pathname.startsWith("/.well-known/")) fetchedMetadata.push(new URL(request.url).pathname);
          return handler.fetch(request);
        },
        close: handler.close,
      };
    });

    const authProvider = new ClientCredentialsProvider({ clientId: "reporting-job", clientSecret: "s3cret", expectedIssuer: as.issuer.origin });
    const client = new Client({ name: "oauth-test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    closeAfterTest(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider }));

    expect(fetchedMetadata).toContain("/.well-known/oauth-protected-resource/mcp");
    expect(as.tokenRequests).toHaveLength(1);
    expect(as.tokenRequests[0]!.get("grant_type")).toBe("client_credentials");
    // RFC 8707: the client asked for a token for exactly this resource, which the audience check then accepted.
    expect(as.tokenRequests[0]!.get("resource")).toBe(url.href);
    const result = (await client.callTool({ name: "notes_whoami", arguments: {} })) as { structuredContent?: unknown };
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
  });
});

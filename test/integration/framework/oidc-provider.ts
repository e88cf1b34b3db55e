// A real OpenID Connect provider for tests: HTTPS with a certificate of its own CA, serving the
// discovery document and a key set with one RSA and one ECDSA key, and signing ID tokens with
// them (jose), as a provider's token endpoint would hand them to a user.
import { SignJWT } from 'jose';
import { TestCA } from '../../../pkg/authentication/testing/ca.js';
import { sendJSON, startTestHttpsServer, type TestHttpsServer } from '../../../pkg/authentication/testing/https-server.js';
import { generateTestKeyPair, type TestKeyPair } from '../../../pkg/authentication/testing/signing-keys.js';

export type ProviderAlg = 'RS256' | 'ES256';

export interface OIDCProvider {
  /** The issuer: `https://127.0.0.1:<port>`, as the discovery document names it. */
  issuer: string;
  /** PEM of the CA of the provider's serving certificate (for --oidc-ca-file). */
  caPem: string;
  /** The keys, by algorithm; their public halves are in the served key set. */
  keys: Record<ProviderAlg, TestKeyPair>;
  server: TestHttpsServer;
  /** Signs the claims with the provider's key for the algorithm, naming its key id. */
  sign(claims: Record<string, unknown>, alg?: ProviderAlg): Promise<string>;
  close(): Promise<void>;
}

const keyIds: Record<ProviderAlg, string> = { RS256: 'provider-rsa', ES256: 'provider-ec' };

export async function startOIDCProvider(): Promise<OIDCProvider> {
  const ca = TestCA.root({ commonName: 'oidc-provider-ca' });
  const serving = ca.server(['127.0.0.1']);
  const keys: Record<ProviderAlg, TestKeyPair> = { RS256: generateTestKeyPair('rsa'), ES256: generateTestKeyPair('P-256') };
  const jwks = {
    keys: (Object.keys(keys) as ProviderAlg[]).map((alg) => ({ ...keys[alg].publicKey.export({ format: 'jwk' }), kid: keyIds[alg], alg, use: 'sig' })),
  };
  let issuer = '';
  const server = await startTestHttpsServer({
    cert: serving.certPem,
    key: serving.keyPem,
    handler: (req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        sendJSON(res, 200, {
          issuer,
          jwks_uri: `${issuer}/keys`,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        });
      } else if (req.url === '/keys') {
        sendJSON(res, 200, jwks);
      } else {
        sendJSON(res, 404, { error: 'not found' });
      }
    },
  });
  issuer = server.url;
  return {
    issuer,
    caPem: ca.certPem,
    keys,
    server,
    sign: (claims, alg = 'RS256') => new SignJWT(claims).setProtectedHeader({ alg, kid: keyIds[alg], typ: 'JWT' }).sign(keys[alg].privateKey),
    close: () => server.close(),
  };
}

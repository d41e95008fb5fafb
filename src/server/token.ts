// Token identity: `identify` functions that read the customer from `Authorization: Bearer <JWT>`
// rather than from the host app's session cookie, for pages on another site, where that cookie
// is a third-party one that Safari and Firefox do not send.
//
// jose is an optional peer dependency, imported here only and only when a token is verified or
// minted: a proxy that identifies by cookie never loads it (nor needs it installed).
import type * as JoseModule from 'jose';
import type { JWTPayload, JWTVerifyOptions, JWTVerifyGetKey } from 'jose';
import { ProxyError } from './errors.js';
import type { BillingIdentity } from './options.js';

type Jose = typeof JoseModule;

let jose: Promise<Jose> | undefined;

function loadJose(): Promise<Jose> {
  jose ??= import('jose').catch((cause: unknown) => {
    jose = undefined;
    throw new Error(
      'Token identity needs the "jose" package next to billing-elements: npm install jose',
      { cause },
    );
  });
  return jose;
}

/** Fewest bytes of a customer-token secret: HS256's key should be as long as its hash. */
export const MIN_SECRET_BYTES = 32;
/** The `typ` header of a customer token, so that no other JWT signed with the same secret passes. */
export const CUSTOMER_TOKEN_TYPE = 'billing-customer+jwt';
/** Longest lifetime `mintCustomerToken` accepts, in seconds. */
export const MAX_CUSTOMER_TOKEN_SECONDS = 86_400;
/** The asymmetric algorithms identifyWithJwt accepts by default (never `none`, never HMAC). */
const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

export type IdentifyFunction = (request: Request) => Promise<BillingIdentity | null>;

export interface IdentifyWithJwtOptions {
  /** The identity provider's JWKS URL (its `jwks_uri`), fetched and cached. */
  jwks: string | URL;
  /** The `iss` the tokens must carry. */
  issuer: string;
  /** The `aud` the tokens must carry (one of them when the token has several). */
  audience: string;
  /** The claim that holds the customer reference. Default `sub`. */
  claim?: string;
  /** Seconds of clock difference accepted on `exp`, `nbf` and `iat`. Default 30. */
  clockToleranceSeconds?: number;
  /** Accepted signing algorithms. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA). */
  algorithms?: string[];
  /** How long the fetched key set is used before it is fetched again, in seconds. Default 600. */
  jwksCacheSeconds?: number;
  /**
   * After a fetch, how long a token signed by a key the set lacks waits before the set is fetched
   * again (a key rotation), in seconds; meanwhile such tokens are refused. Default 30.
   */
  jwksCooldownSeconds?: number;
}

export interface IdentifyWithCustomerTokenOptions {
  /** The secret shared with the server that mints the tokens: at least 32 bytes. */
  secret: string | Uint8Array;
  /** The `aud` the tokens must carry, when they are minted with one. */
  audience?: string;
  /** Seconds of clock difference accepted on `exp` and `iat`. Default 30. */
  clockToleranceSeconds?: number;
}

export interface MintCustomerTokenOptions {
  /** The secret the proxy verifies with (`identifyWithCustomerToken`): at least 32 bytes. */
  secret: string | Uint8Array;
  /** The signed-in customer's reference at the billing service (the token's `sub`). */
  reference: string;
  /** Lifetime in seconds, 1 to 86,400. Default 600 (10 minutes). */
  expiresInSeconds?: number;
  /** An `aud` to bind the token to one proxy (set the same in identifyWithCustomerToken). */
  audience?: string;
}

/**
 * An `identify` for `createBillingProxy` that verifies a JWT of the site's identity provider
 * (Auth0, Clerk, Cognito, Firebase, Supabase...) sent as `Authorization: Bearer`: signature
 * against the provider's JWKS, `iss`, `aud`, `exp` and `nbf` within the clock tolerance. The
 * customer is the `claim` (default `sub`); `email` and `name` go along when the token has them.
 * No header: null (signed out, 401 `unauthenticated`). A token refused: 401 `token-expired`
 * (the elements ask for a new token and retry once) or `token-invalid`.
 */
export function identifyWithJwt(options: IdentifyWithJwtOptions): IdentifyFunction {
  const jwksUrl = checkedUrl(options.jwks);
  requireText('identifyWithJwt', 'issuer', options.issuer);
  requireText('identifyWithJwt', 'audience', options.audience);
  const claim = options.claim ?? 'sub';
  requireText('identifyWithJwt', 'claim', claim);
  const verifyOptions: JWTVerifyOptions = {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: options.algorithms ?? ASYMMETRIC_ALGORITHMS,
    clockTolerance: seconds(
      'identifyWithJwt',
      'clockToleranceSeconds',
      options.clockToleranceSeconds,
      30,
    ),
    requiredClaims: ['exp'],
  };
  const cacheMaxAge =
    1000 * seconds('identifyWithJwt', 'jwksCacheSeconds', options.jwksCacheSeconds, 600);
  const cooldownDuration =
    1000 * seconds('identifyWithJwt', 'jwksCooldownSeconds', options.jwksCooldownSeconds, 30);
  let keys: JWTVerifyGetKey | undefined;
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) return null;
    const { jwtVerify, createRemoteJWKSet } = await loadJose();
    keys ??= createRemoteJWKSet(jwksUrl, { cacheMaxAge, cooldownDuration });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      throw refusal(error);
    }
    const reference = payload[claim];
    if (typeof reference !== 'string' || reference === '')
      throw tokenInvalid(`The token has no "${claim}" claim naming the customer.`);
    const identity: BillingIdentity = { reference };
    if (typeof payload.email === 'string') identity.email = payload.email;
    if (typeof payload.name === 'string') identity.name = payload.name;
    return identity;
  };
}

/**
 * An `identify` for `createBillingProxy` that verifies a customer token minted by the business's
 * own server with `mintCustomerToken` (HS256 with a shared secret): for a site with no identity
 * provider of its own. See mintCustomerToken for the format.
 */
export function identifyWithCustomerToken(
  options: IdentifyWithCustomerTokenOptions,
): IdentifyFunction {
  const key = secretBytes('identifyWithCustomerToken', options.secret);
  if (options.audience !== undefined)
    requireText('identifyWithCustomerToken', 'audience', options.audience);
  const verifyOptions: JWTVerifyOptions = {
    algorithms: ['HS256'],
    typ: CUSTOMER_TOKEN_TYPE,
    clockTolerance: seconds(
      'identifyWithCustomerToken',
      'clockToleranceSeconds',
      options.clockToleranceSeconds,
      30,
    ),
    requiredClaims: ['sub', 'exp', 'iat'],
    ...(options.audience === undefined ? {} : { audience: options.audience }),
  };
  return async (request) => {
    const token = bearerToken(request);
    if (token === null) return null;
    const { jwtVerify } = await loadJose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, verifyOptions));
    } catch (error) {
      throw refusal(error);
    }
    const issuedAt = payload.iat ?? 0;
    if ((payload.exp ?? 0) - issuedAt > MAX_CUSTOMER_TOKEN_SECONDS)
      throw tokenInvalid('The token lives longer than a customer token may.');
    if (typeof payload.sub !== 'string' || payload.sub === '')
      throw tokenInvalid('The token has no "sub" claim naming the customer.');
    return { reference: payload.sub };
  };
}

/**
 * A short-lived token for the signed-in customer, minted by the business's server (a route of
 * its app that the page calls with its own session) and verified by `identifyWithCustomerToken`.
 *
 * Format: a JWT (RFC 7519) signed with HS256, header `{ "alg": "HS256", "typ":
 * "billing-customer+jwt" }`, claims `sub` (the customer reference), `iat`, `exp` (`iat` +
 * `expiresInSeconds`, default 600) and `aud` when given. Nothing else: the token travels in the
 * browser, so it carries no name, email or secret.
 */
export async function mintCustomerToken(options: MintCustomerTokenOptions): Promise<string> {
  const key = secretBytes('mintCustomerToken', options.secret);
  requireText('mintCustomerToken', 'reference', options.reference);
  const lifetime = options.expiresInSeconds ?? 600;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_CUSTOMER_TOKEN_SECONDS)
    throw new TypeError(
      `mintCustomerToken: expiresInSeconds must be a whole number from 1 to ${MAX_CUSTOMER_TOKEN_SECONDS}`,
    );
  if (options.audience !== undefined)
    requireText('mintCustomerToken', 'audience', options.audience);
  const { SignJWT } = await loadJose();
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: CUSTOMER_TOKEN_TYPE })
    .setSubject(options.reference)
    .setIssuedAt()
    .setExpirationTime(`${lifetime}s`);
  if (options.audience !== undefined) jwt.setAudience(options.audience);
  return jwt.sign(key);
}

/** The token of `Authorization: Bearer <token>`, null without the header. */
function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (header === null) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i.exec(header);
  if (match?.[1] === undefined)
    throw tokenInvalid('The Authorization header must be "Bearer <token>".');
  return match[1];
}

/**
 * What the browser is told of a refused token: which check failed, never a claim's value (the
 * token is the customer's, but an answer may end up in logs or error trackers).
 */
function refusal(error: unknown): ProxyError {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new ProxyError(401, 'token-expired', 'The token has expired: get a new one.', {
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      });
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const { claim, reason } = error as { claim?: string; reason?: string };
      if (reason === 'missing') return tokenInvalid(`The token lacks the "${claim}" claim.`);
      if (claim === 'aud') return tokenInvalid('The token is for another audience.');
      if (claim === 'iss') return tokenInvalid('The token is from another issuer.');
      if (claim === 'nbf') return tokenInvalid('The token is not valid yet.');
      if (claim === 'iat') return tokenInvalid('The token was issued in the future.');
      if (claim === 'typ') return tokenInvalid('The token is not a customer token.');
      return tokenInvalid(`The token’s "${claim}" claim is not accepted.`);
    }
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return tokenInvalid('The token’s signature does not verify.');
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return tokenInvalid('The token is signed with a key the issuer does not publish.');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return tokenInvalid('The token’s signing algorithm is not accepted.');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return tokenInvalid('The token is malformed.');
    default:
      // The key set could not be fetched or read (network, timeout, not a JWKS): not the
      // token's fault, and worth retrying.
      return new ProxyError(503, 'upstream-unavailable', 'The token’s keys could not be read.', {
        headers: { 'retry-after': '2' },
      });
  }
}

function tokenInvalid(message: string): ProxyError {
  return new ProxyError(401, 'token-invalid', message, {
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
  });
}

function secretBytes(where: string, secret: string | Uint8Array): Uint8Array {
  const bytes =
    typeof secret === 'string'
      ? new TextEncoder().encode(secret)
      : secret instanceof Uint8Array
        ? secret
        : undefined;
  if (bytes === undefined) throw new TypeError(`${where}: secret must be a string or a Uint8Array`);
  if (bytes.byteLength < MIN_SECRET_BYTES)
    throw new TypeError(
      `${where}: secret must be at least ${MIN_SECRET_BYTES} bytes (it has ${bytes.byteLength}); make one with: openssl rand -base64 32`,
    );
  return bytes;
}

function requireText(where: string, name: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${where}: ${name} must be a non-empty string`);
}

function seconds(where: string, name: string, value: number | undefined, fallback: number): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isFinite(chosen) || chosen < 0)
    throw new TypeError(`${where}: ${name} must be a number of seconds, 0 or more`);
  return chosen;
}

function checkedUrl(value: string | URL): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  } catch {
    // Said below.
  }
  throw new TypeError('identifyWithJwt: jwks must be the absolute http(s) URL of a JWKS');
}

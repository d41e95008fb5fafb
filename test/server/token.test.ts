// Token identity through the real proxy, served over HTTP by its Node adapter, in front of the
// real sandbox: JWTs of an identity provider whose JWKS a local HTTP server publishes, customer
// tokens minted by the business's server, and the stream tickets of the event stream. Every
// refusal is a 401 with its own code, names no claim value, and reaches nothing upstream.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  SignJWT,
  UnsecuredJWT,
  exportJWK,
  generateKeyPair,
  type CryptoKey as JoseKey,
  type JWK,
} from 'jose';
import {
  createBillingProxy,
  identifyWithCustomerToken,
  identifyWithJwt,
  mintCustomerToken,
  toNodeHandler,
  type BillingProxy,
  type BillingProxyOptions,
} from '../../src/server/index.js';
import { createMemoryIdempotencyStore } from '../../src/server/index.js';
import { createStreamTickets } from '../../src/server/stream-ticket.js';
import {
  control,
  countingFetch,
  listen,
  proxyOptions,
  readEventBlocks,
  useSandbox,
} from './helpers.js';
import { waitFor } from '../time.js';

const ISSUER = 'https://id.example.test/';
const AUDIENCE = 'https://billing.example.test';
const SECRET = 'a-customer-token-secret-of-32-bytes-or-more';
const PAGE_ORIGIN = 'https://nocode.example';

interface SigningKey {
  kid: string;
  privateKey: JoseKey;
  publicJwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

/** A JWT of the identity provider, valid unless `change` says otherwise. */
async function providerToken(
  key: SigningKey,
  change: { sub?: string; aud?: string; iss?: string; exp?: number; nbf?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'healthy@example.test' })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid })
    .setSubject(change.sub ?? 'healthy')
    .setIssuer(change.iss ?? ISSUER)
    .setAudience(change.aud ?? AUDIENCE)
    .setIssuedAt(now)
    .setNotBefore(change.nbf ?? now)
    .setExpirationTime(change.exp ?? now + 300)
    .sign(key.privateKey);
}

describe('token identity', () => {
  const sandbox = useSandbox();
  let jwksServer: Server;
  let jwksUrl: string;
  /** What the JWKS server publishes. */
  let published: JWK[] = [];
  let jwksFetches = 0;
  let first: SigningKey;
  let second: SigningKey;
  let counter: ReturnType<typeof countingFetch>;
  const servers: Server[] = [];

  before(async () => {
    first = await signingKey('first');
    second = await signingKey('second');
    jwksServer = createServer((_request, response) => {
      jwksFetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: published }));
    });
    jwksUrl = `${await listen(jwksServer)}/.well-known/jwks.json`;
  });
  after(() => {
    jwksServer.close();
    for (const server of servers) server.close();
  });
  beforeEach(() => {
    published = [first.publicJwk];
    counter = countingFetch();
  });

  /** The proxy with `identify`, over HTTP: its origin. */
  async function serve(overrides: Partial<BillingProxyOptions>): Promise<{
    origin: string;
    proxy: BillingProxy;
  }> {
    const proxy = createBillingProxy(
      proxyOptions(sandbox, {
        // Through the test's current counter, whichever it is.
        fetch: (input, init) => counter.fetch(input, init),
        allowedOrigins: [PAGE_ORIGIN],
        ...overrides,
      }),
    );
    const server = createServer(toNodeHandler(proxy));
    servers.push(server);
    return { origin: await listen(server), proxy };
  }

  const jwtProxy = () =>
    serve({
      identify: identifyWithJwt({
        jwks: jwksUrl,
        issuer: ISSUER,
        audience: AUDIENCE,
        jwksCooldownSeconds: 0,
      }),
    });

  /** A request from the page on another site, as the elements send it: a bearer token, no cookie. */
  async function send(
    origin: string,
    path: string,
    token: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${origin}/billing${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        origin: PAGE_ORIGIN,
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely
    const parsed: any = text === '' ? undefined : JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** Asserts a 401 with `code`, that says nothing of the token's claims and reached nothing upstream. */
  async function assertRefused(
    answer: Awaited<ReturnType<typeof send>>,
    code: 'token-expired' | 'token-invalid',
    message: RegExp,
  ) {
    assert.equal(answer.status, 401, answer.text);
    assert.equal(answer.body.code, code);
    assert.match(answer.body.message, message);
    assert.equal(answer.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    assert.equal(answer.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
    for (const claim of ['healthy', ISSUER, AUDIENCE, 'id.example', 'other.test'])
      assert.ok(!answer.text.includes(claim), `the answer echoes ${claim}`);
    assert.equal(counter.total, 0, 'nothing reached the billing service');
  }

  describe('identifyWithJwt', () => {
    it('accepts a valid token: the customer is its sub', async () => {
      const { origin } = await jwtProxy();
      const answer = await send(origin, '/usages', await providerToken(first));
      assert.equal(answer.status, 200, answer.text);
      assert.ok(
        answer.body.usages.some(
          (usage: { ReferenceFeature: string }) => usage.ReferenceFeature === 'seats',
        ),
      );
      assert.equal(answer.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
    });

    it('reads the customer from another claim when told', async () => {
      const { origin } = await serve({
        identify: identifyWithJwt({
          jwks: jwksUrl,
          issuer: ISSUER,
          audience: AUDIENCE,
          claim: 'email',
        }),
      });
      const answer = await send(origin, '/usages', await providerToken(first));
      // The email names no customer of the sandbox: the proxy creates it, and it has no plan.
      assert.notEqual(answer.status, 401, answer.text);
      await control(sandbox).customer('healthy@example.test');
    });

    it('without a token the customer is signed out: 401 unauthenticated', async () => {
      const { origin } = await jwtProxy();
      const answer = await send(origin, '/usages', null);
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, 'unauthenticated');
    });

    it('refuses an expired token as token-expired, and accepts one within the clock tolerance', async () => {
      const { origin } = await jwtProxy();
      const now = Math.floor(Date.now() / 1000);
      await assertRefused(
        await send(origin, '/usages', await providerToken(first, { exp: now - 120 })),
        'token-expired',
        /expired/,
      );
      const late = await send(origin, '/usages', await providerToken(first, { exp: now - 5 }));
      assert.equal(late.status, 200, 'within the 30 s tolerance');
    });

    it('refuses a forged signature, another audience, another issuer, a future nbf', async () => {
      const { origin } = await jwtProxy();
      const forger = await signingKey('first'); // same kid, another key
      await assertRefused(
        await send(origin, '/usages', await providerToken(forger)),
        'token-invalid',
        /signature/,
      );
      await assertRefused(
        await send(origin, '/usages', await providerToken(first, { aud: 'https://other.test' })),
        'token-invalid',
        /audience/,
      );
      await assertRefused(
        await send(origin, '/usages', await providerToken(first, { iss: 'https://other.test/' })),
        'token-invalid',
        /issuer/,
      );
      const later = Math.floor(Date.now() / 1000) + 600;
      await assertRefused(
        await send(origin, '/usages', await providerToken(first, { nbf: later, exp: later + 60 })),
        'token-invalid',
        /not valid yet/,
      );
    });

    it('refuses alg none, an HMAC token, malformed tokens and headers', async () => {
      const { origin } = await jwtProxy();
      const now = Math.floor(Date.now() / 1000);
      const unsecured = new UnsecuredJWT({})
        .setSubject('healthy')
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now + 300)
        .encode();
      await assertRefused(
        await send(origin, '/usages', unsecured),
        'token-invalid',
        /malformed|algorithm/,
      );
      const hmac = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', kid: 'first' })
        .setSubject('healthy')
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now + 300)
        .sign(new TextEncoder().encode(JSON.stringify(first.publicJwk)));
      await assertRefused(await send(origin, '/usages', hmac), 'token-invalid', /algorithm/);
      await assertRefused(await send(origin, '/usages', 'not-a-jwt'), 'token-invalid', /malformed/);
      const [header, , signature] = (await providerToken(first)).split('.');
      await assertRefused(
        await send(origin, '/usages', `${header}.eyJzdWIi.${signature}`),
        'token-invalid',
        /malformed|signature/,
      );
      await assertRefused(
        await send(origin, '/usages', null, undefined, { authorization: 'Basic aGVhbHRoeTo=' }),
        'token-invalid',
        /Bearer/,
      );
    });

    it('follows a key rotation: the new key is fetched, the retired one refused', async () => {
      const { origin } = await jwtProxy();
      assert.equal((await send(origin, '/usages', await providerToken(first))).status, 200);
      const oldToken = await providerToken(first);
      published = [second.publicJwk];
      const fetchesBefore = jwksFetches;
      assert.equal((await send(origin, '/usages', await providerToken(second))).status, 200);
      assert.ok(jwksFetches > fetchesBefore, 'an unknown key made the proxy fetch the JWKS again');
      counter = countingFetch();
      await assertRefused(await send(origin, '/usages', oldToken), 'token-invalid', /key/);
    });

    it('applies nothing upstream for a refused purchase, and a valid one once', async () => {
      const { origin } = await jwtProxy();
      const token = await providerToken(first);
      const priced = await send(origin, '/pricing', token, { feature: 'seats', increment: 2 });
      assert.equal(priced.status, 200, priced.text);
      const purchase = {
        feature: 'seats',
        increment: 2,
        idempotencyKey: 'token-purchase-000001',
        confirmedAmountTotal: priced.body.AmountTotal,
      };
      const before = await control(sandbox).stats();
      const now = Math.floor(Date.now() / 1000);
      const callsBefore = counter.total;
      for (const bad of [
        await providerToken(first, { exp: now - 120 }),
        await providerToken(first, { aud: 'https://other.test' }),
        await providerToken(await signingKey('first')),
      ]) {
        const refused = await send(origin, '/usage', bad, purchase);
        assert.equal(refused.status, 401, refused.text);
      }
      assert.equal(counter.total, callsBefore, 'no refused purchase reached the service');
      assert.equal(
        (await control(sandbox).stats()).appliedUsageChanges,
        before.appliedUsageChanges,
      );
      // The same purchase with a valid token (the page's retry after a refresh): applied once.
      const applied = await send(origin, '/usage', token, purchase);
      assert.equal(applied.status, 200, applied.text);
      const again = await send(origin, '/usage', await providerToken(first), purchase);
      assert.equal(again.status, 200, again.text);
      const after = await control(sandbox).stats();
      assert.equal(after.appliedUsageChanges, before.appliedUsageChanges + 1);
    });

    it('keeps the origin rules, and lets an allowed origin send Authorization', async () => {
      const { origin } = await jwtProxy();
      const stranger = await fetch(`${origin}/billing/usages`, {
        headers: {
          origin: 'https://evil.example',
          authorization: `Bearer ${await providerToken(first)}`,
        },
      });
      assert.equal(stranger.status, 403);
      assert.equal(((await stranger.json()) as { code: string }).code, 'forbidden-origin');
      const preflight = await fetch(`${origin}/billing/usage`, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
      assert.match(
        preflight.headers.get('access-control-allow-headers') ?? '',
        /\bauthorization\b/,
      );
      assert.equal(counter.total, 0);
    });

    it('says what is wrong with its options at creation', () => {
      assert.throws(
        () => identifyWithJwt({ jwks: 'not a url', issuer: ISSUER, audience: AUDIENCE }),
        /jwks must be the absolute http\(s\) URL/,
      );
      assert.throws(
        () => identifyWithJwt({ jwks: jwksUrl, issuer: '', audience: AUDIENCE }),
        /issuer must be a non-empty string/,
      );
    });
  });

  describe('customer tokens', () => {
    const tokenProxy = (audience?: string) =>
      serve({
        identify: identifyWithCustomerToken({
          secret: SECRET,
          clockToleranceSeconds: 0,
          ...(audience === undefined ? {} : { audience }),
        }),
      });

    it('refuses a secret shorter than 32 bytes, at start', async () => {
      assert.throws(
        () => identifyWithCustomerToken({ secret: 'short-secret' }),
        /secret must be at least 32 bytes \(it has 12\)/,
      );
      await assert.rejects(
        mintCustomerToken({ secret: 'x'.repeat(31), reference: 'healthy' }),
        /at least 32 bytes/,
      );
      await assert.rejects(
        mintCustomerToken({ secret: SECRET, reference: 'healthy', expiresInSeconds: 0 }),
        /expiresInSeconds must be a whole number/,
      );
    });

    it('accepts a minted token: sub, iat, exp and the typ header, nothing else', async () => {
      const { origin } = await tokenProxy();
      const token = await mintCustomerToken({ secret: SECRET, reference: 'healthy' });
      const [header = '', payload = ''] = token.split('.');
      assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), {
        alg: 'HS256',
        typ: 'billing-customer+jwt',
      });
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      assert.deepEqual(Object.keys(claims).sort(), ['exp', 'iat', 'sub']);
      assert.equal(claims.exp - claims.iat, 600);
      const answer = await send(origin, '/usages', token);
      assert.equal(answer.status, 200, answer.text);
    });

    it('refuses a token replayed after its expiry', async (context) => {
      const { origin } = await tokenProxy();
      const token = await mintCustomerToken({
        secret: SECRET,
        reference: 'healthy',
        expiresInSeconds: 60,
      });
      assert.equal((await send(origin, '/usages', token)).status, 200);
      // The clock moves past the expiry without waiting for it (timers stay real).
      context.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      context.mock.timers.tick(61_000);
      counter = countingFetch();
      await assertRefused(await send(origin, '/usages', token), 'token-expired', /expired/);
    });

    it('refuses a tampered token, another secret, another audience, a JWT of another kind', async () => {
      const { origin } = await tokenProxy('billing');
      const token = await mintCustomerToken({
        secret: SECRET,
        reference: 'healthy',
        audience: 'billing',
      });
      assert.equal((await send(origin, '/usages', token)).status, 200);
      counter = countingFetch();
      const [header, , signature] = token.split('.');
      const other = Buffer.from(
        JSON.stringify({ sub: 'suspended', iat: 1, exp: 9e9, aud: 'billing' }),
      ).toString('base64url');
      await assertRefused(
        await send(origin, '/usages', `${header}.${other}.${signature}`),
        'token-invalid',
        /signature/,
      );
      await assertRefused(
        await send(
          origin,
          '/usages',
          await mintCustomerToken({
            secret: `${SECRET}-other`,
            reference: 'healthy',
            audience: 'billing',
          }),
        ),
        'token-invalid',
        /signature/,
      );
      await assertRefused(
        await send(
          origin,
          '/usages',
          await mintCustomerToken({ secret: SECRET, reference: 'healthy', audience: 'other' }),
        ),
        'token-invalid',
        /audience/,
      );
      // The host app's own session JWT, signed with the same secret: not a customer token.
      const session = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('healthy')
        .setAudience('billing')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(SECRET));
      await assertRefused(
        await send(origin, '/usages', session),
        'token-invalid',
        /not a customer token/,
      );
    });
  });

  describe('stream tickets', () => {
    const tokenProxy = () => serve({ identify: identifyWithCustomerToken({ secret: SECRET }) });

    it('trade a token for a single-use ticket that opens the customer’s stream', async () => {
      const { origin, proxy } = await tokenProxy();
      const token = await mintCustomerToken({ secret: SECRET, reference: 'healthy' });
      const issued = await send(origin, '/stream-ticket', token, {});
      assert.equal(issued.status, 200, issued.text);
      assert.equal(typeof issued.body.ticket, 'string');
      const lifetime = Date.parse(issued.body.expiresAt) - Date.now();
      assert.ok(lifetime > 50_000 && lifetime <= 60_000, `lives a minute (${lifetime} ms)`);
      assert.ok(!issued.body.ticket.includes('healthy'), 'the reference is not written in clear');

      const controller = new AbortController();
      const stream = await fetch(
        `${origin}/billing/events?ticket=${encodeURIComponent(issued.body.ticket)}`,
        {
          headers: { origin: PAGE_ORIGIN },
          signal: controller.signal,
        },
      );
      assert.equal(stream.status, 200);
      assert.equal(stream.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
      const blocks: string[] = [];
      readEventBlocks(stream.body!.getReader(), (block) => blocks.push(block));
      // The stream's first block (its retry delay) shows it is open and listening.
      await waitFor(() => blocks.length > 0, 'the stream to open');
      await proxy.notify('healthy');
      await waitFor(
        () => blocks.some((block) => block.includes('billing-changed')),
        'the signal to come through the stream',
      );
      controller.abort();

      const reused = await fetch(
        `${origin}/billing/events?ticket=${encodeURIComponent(issued.body.ticket)}`,
        {
          headers: { origin: PAGE_ORIGIN },
        },
      );
      assert.equal(reused.status, 401);
      assert.deepEqual(await reused.json(), {
        code: 'token-invalid',
        message: 'The stream ticket was already used.',
      });
      const [expires, customer] = issued.body.ticket.split('.');
      const forged = `${expires}.${Buffer.from('suspended').toString('base64url')}.${'A'.repeat(43)}`;
      for (const ticket of [forged, `${expires}.${customer}.${'A'.repeat(43)}`, 'nonsense', '']) {
        const refused = await fetch(
          `${origin}/billing/events?ticket=${encodeURIComponent(ticket)}`,
          {
            headers: { origin: PAGE_ORIGIN },
          },
        );
        assert.equal(refused.status, 401, ticket);
        assert.equal(((await refused.json()) as { code: string }).code, 'token-invalid');
      }
      const signedOut = await send(origin, '/stream-ticket', null, {});
      assert.equal(signedOut.status, 401);
      assert.equal(signedOut.body.code, 'unauthenticated');
    });

    it('expire after a minute', async () => {
      let now = Date.parse('2026-11-27T12:00:00Z');
      const tickets = createStreamTickets(
        'portal-secret',
        createMemoryIdempotencyStore(),
        () => now,
      );
      const { ticket } = await tickets.issue('healthy');
      now += 61_000;
      await assert.rejects(tickets.redeem(ticket), { code: 'token-expired', status: 401 });
      const fresh = await tickets.issue('healthy');
      assert.equal(await tickets.redeem(fresh.ticket), 'healthy');
      const otherProxy = createStreamTickets(
        'another-secret',
        createMemoryIdempotencyStore(),
        () => now,
      );
      await assert.rejects(otherProxy.redeem((await tickets.issue('healthy')).ticket), {
        code: 'token-invalid',
      });
    });
  });
});

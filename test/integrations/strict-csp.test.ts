// examples/strict-csp: a page under a strict Content-Security-Policy with require-trusted-types-for 'script'.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { proveBilling, useExample, withServer } from './harness.js';

const run = useExample('strict-csp');

test('strict CSP and Trusted Types: meters, a purchase and the portal, no violation', () =>
  withServer(run, async (url) => {
    // The page is really served under the policy (else this test would prove nothing).
    const policy = (await fetch(url)).headers.get('content-security-policy') ?? '';
    assert.match(policy, /require-trusted-types-for 'script'/);
    assert.match(policy, /default-src 'none'/);
    await proveBilling(run.browser, run.sandbox, url);
  }));

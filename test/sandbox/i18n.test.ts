import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDate } from '../../src/sandbox/i18n.js';

// The dates of the hosted pages and of the service's texts.

describe('sandbox dates', () => {
  it('writes the first of a month as French does: "1er décembre"', () => {
    assert.equal(formatDate('2026-12-01T00:00:00.000Z', 'fr'), '1er décembre 2026');
    assert.equal(formatDate('2026-12-02T00:00:00.000Z', 'fr'), '2 décembre 2026');
    assert.equal(formatDate('2026-12-31T00:00:00.000Z', 'fr'), '31 décembre 2026');
    assert.equal(formatDate('2026-12-01T00:00:00.000Z', 'en'), 'December 1, 2026');
  });
});

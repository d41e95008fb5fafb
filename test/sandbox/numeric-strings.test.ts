// Numbers in JSON bodies, as JSON numbers or as strings holding one (`"Increment": "1"`, the way a
// PHP form hands a field over), which the live service's JSON reader accepts. Anything else is
// still a 422 naming the field, and changes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { jsonNumber } from '../../src/sandbox/api/validate.js';
import { quantityOf, usageBody, useTestSandbox, type Answer } from './helpers.js';

/** Strings and values that are not a number: each is refused wherever a number is read. */
const NOT_NUMBERS: unknown[] = [
  'abc',
  '',
  ' ',
  ' 1',
  '1 ',
  '+1',
  '01',
  '1,5',
  '0x10',
  '1e999',
  '-1e999',
  'Infinity',
  'NaN',
  '1_000',
  [1],
  ['1'],
  {},
  true,
];

const label = (value: unknown) => JSON.stringify(value);

function assertRefusedField(answer: Answer, target: string, value: unknown): void {
  assert.equal(answer.status, 422, `${label(value)}: ${answer.text}`);
  assert.ok(Array.isArray(answer.body), label(value));
  assert.deepEqual(
    answer.body.map((e: { Code: string; Target: string }) => [e.Code, e.Target]),
    [['Error.Api.Validation', target]],
    label(value),
  );
}

describe('numeric strings in the API bodies', () => {
  const t = useTestSandbox();

  it('prices and applies "Increment": "1" as Increment 1', async () => {
    const asNumber = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('healthy', 'seats', { Increment: 3 }),
    );
    const asString = await t.api(
      'POST',
      '/v1/Pricing/Usage',
      usageBody('healthy', 'seats', { Increment: '3' }),
    );
    assert.equal(asString.status, 200, asString.text);
    assert.deepEqual(asString.body, asNumber.body);
    const applied = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: '1' }),
    );
    assert.equal(applied.status, 200, applied.text);
    assert.equal(await quantityOf(t, 'healthy', 'seats'), 4);
    const down = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'seats', { Increment: '-2' }),
    );
    assert.equal(down.status, 200, down.text);
    assert.equal(await quantityOf(t, 'healthy', 'seats'), 2);
    // The JSON number forms: a fraction of zero and an exponent are the integers they write.
    for (const [text, expected] of [
      ['1.0', 3],
      ['2e0', 5],
    ] as const) {
      const res = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { Increment: text }),
      );
      assert.equal(res.status, 200, `${text}: ${res.text}`);
      assert.equal(await quantityOf(t, 'healthy', 'seats'), expected, text);
    }
  });

  it('reads QuantityCurrent and IdSubscription from strings too', async () => {
    const absolute = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('healthy', 'projects', { QuantityCurrent: '7' }),
    );
    assert.equal(absolute.status, 200, absolute.text);
    assert.equal(absolute.body.QuantityCurrent, 7);
    const starter = (await t.customer('two-subscriptions')).subscriptions[0];
    assert.equal(starter.ReferenceOffer, 'starter');
    const chosen = await t.api(
      'POST',
      '/v1/Usage',
      usageBody('two-subscriptions', 'projects', {
        Increment: '1',
        IdSubscription: String(starter.Id),
      }),
    );
    assert.equal(chosen.status, 200, chosen.text);
    assert.equal(chosen.body.IdSubscription, starter.Id);
  });

  it('refuses anything else with a 422 naming the field, and changes nothing', async () => {
    const before = await t.customer('healthy');
    for (const value of NOT_NUMBERS) {
      for (const route of ['/v1/Pricing/Usage', '/v1/Usage']) {
        const res = await t.api('POST', route, usageBody('healthy', 'seats', { Increment: value }));
        assertRefusedField(res, 'Increment', value);
      }
    }
    for (const value of [...NOT_NUMBERS, '-1', '2.5']) {
      const res = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { QuantityCurrent: value }),
      );
      assertRefusedField(res, 'QuantityCurrent', value);
    }
    for (const value of [...NOT_NUMBERS, '0', '-4', '1.5']) {
      const res = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { Increment: 1, IdSubscription: value }),
      );
      assertRefusedField(res, 'IdSubscription', value);
    }
    assert.deepEqual(await t.customer('healthy'), before);
  });

  it('keeps each field its own rules: "1.5" is not an integer, "0" is no change', async () => {
    const cases: [unknown, RegExp][] = [
      ['1.5', /Increment must be an integer/],
      ['0', /Increment must not be 0/],
      ['1000001', /Increment must be between/],
      ['abc', /Increment must be an integer/],
    ];
    for (const [value, message] of cases) {
      const res = await t.api(
        'POST',
        '/v1/Usage',
        usageBody('healthy', 'seats', { Increment: value }),
      );
      assertRefusedField(res, 'Increment', value);
      assert.match(res.body[0].Message, message, label(value));
    }
    assert.equal(await quantityOf(t, 'healthy', 'seats'), 3);
  });

  it('the control API reads numbers the same way', async () => {
    const advanced = await t.control('POST', '/clock', { advance: { days: '2', hours: '12' } });
    assert.equal(advanced.status, 200, advanced.text);
    assert.equal(advanced.body.now, '2026-11-18T12:00:00.000Z');
    for (const value of ['two', '1.5', '', [2]]) {
      const res = await t.control('POST', '/clock', { advance: { days: value } });
      assertRefusedField(res, 'advance.days', value);
    }
    assert.equal((await t.control('GET', '/clock')).body.now, '2026-11-18T12:00:00.000Z');
    const fault = await t.control('POST', '/faults', {
      route: 'POST /v1/Usage',
      mode: 'status-500',
      times: '2',
    });
    assert.equal(fault.status, 201, fault.text);
    assert.equal(fault.body.faults[0].remaining, 2);
    await t.control('DELETE', '/faults');
  });
});

describe('jsonNumber', () => {
  // No field of the sandbox's bodies takes a fraction; where one does, "1.5" is 1.5.
  const decimal = jsonNumber(z.number().min(0));

  it('reads a decimal string where decimals are valid', () => {
    assert.equal(decimal.parse('1.5'), 1.5);
    assert.equal(decimal.parse('0.25'), 0.25);
    assert.equal(decimal.parse('-0'), -0);
    assert.equal(decimal.parse('12e-1'), 1.2);
    assert.equal(decimal.parse(2.5), 2.5);
  });

  it('refuses what is not a JSON number, written or not', () => {
    for (const value of NOT_NUMBERS) {
      assert.equal(decimal.safeParse(value).success, false, label(value));
    }
    assert.equal(decimal.safeParse('-1.5').success, false, 'the schema still applies');
  });
});

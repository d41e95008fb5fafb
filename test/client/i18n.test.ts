import { expect, fixture, html } from '@open-wc/testing';
import { configureBilling } from '../../src/client/config.js';
import {
  formatDate,
  formatMoney,
  hasMessage,
  languageOf,
  message,
  messageFor,
  toLanguage,
} from '../../src/client/i18n.js';
import { registerSharedTexts } from '../../src/client/shared-texts.js';
import { resetClient } from '../browser/billing.js';

describe('i18n', () => {
  // The shared texts (retry, close...) are registered by the elements that show them.
  before(() => registerSharedTexts());
  afterEach(() => resetClient());

  it('takes the language from the closest lang, across shadow roots', async () => {
    const host = await fixture<HTMLElement>(html`<section lang="fr-CA"><div></div></section>`);
    const inner = host.querySelector('div')!;
    const root = inner.attachShadow({ mode: 'open' });
    const deep = document.createElement('span');
    root.append(deep);
    expect(languageOf(deep)).to.equal('fr');
    const english = await fixture<HTMLElement>(html`<div lang="de"><span></span></div>`);
    expect(languageOf(english.querySelector('span')!)).to.equal('en');
    expect(toLanguage('FR')).to.equal('fr');
    expect(toLanguage(undefined)).to.equal('en');
    expect(toLanguage(' fr_CA ')).to.equal('fr');
    expect(toLanguage('')).to.equal('en');
    expect(toLanguage('french')).to.equal('en');
  });

  it('lets the page override any text per language, keeping the rest', async () => {
    const el = await fixture<HTMLElement>(html`<p lang="fr"></p>`);
    expect(message(el, 'retry')).to.equal('Réessayer');
    configureBilling({ messages: { fr: { retry: 'Encore' } } });
    configureBilling({ messages: { fr: { close: 'Fermer la fenêtre' } } });
    expect(message(el, 'retry')).to.equal('Encore');
    expect(message(el, 'close')).to.equal('Fermer la fenêtre');
    expect(messageFor('en', 'retry')).to.equal('Try again');
  });

  it('fills placeholders and knows which keys exist', () => {
    configureBilling({ messages: { en: { retry: 'Try {what} again' } } });
    expect(messageFor('en', 'retry', { what: 'it' })).to.equal('Try it again');
    expect(messageFor('en', 'retry')).to.equal('Try {what} again');
    expect(hasMessage('en', 'error.Error.Api.Usage.NoneMatching')).to.equal(true);
    expect(hasMessage('en', 'error.something-else')).to.equal(false);
  });

  it('formats money and dates through Intl, in UTC', () => {
    expect(formatMoney('en', 4900, 'USD')).to.equal('$49.00');
    expect(formatMoney('fr', 4900, 'EUR').replace(/\s/g, ' ')).to.equal('49,00 €');
    expect(formatDate('en', '2026-12-01T00:00:00.000Z')).to.equal('December 1, 2026');
    // French writes the first of a month as an ordinal; other days, and numeric dates, as Intl.
    expect(formatDate('fr', '2026-12-01T00:00:00.000Z')).to.equal('1er décembre 2026');
    expect(formatDate('fr', '2026-12-02T00:00:00.000Z')).to.equal('2 décembre 2026');
    expect(formatDate('fr', '2026-12-21T00:00:00.000Z')).to.equal('21 décembre 2026');
    expect(formatDate('fr', '2026-12-01T00:00:00.000Z', { dateStyle: 'short' })).to.equal(
      '01/12/2026',
    );
    expect(formatDate('en', 'not a date')).to.equal('');
    // A Date as given, to the last millisecond before midnight UTC.
    expect(formatDate('en', new Date(Date.UTC(2026, 11, 1) - 1))).to.equal('November 30, 2026');
    expect(formatDate('en', new Date(Number.NaN))).to.equal('');
  });
});

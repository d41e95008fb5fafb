import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { configureBilling } from '../../src/client/config.js';
import {
  formatDate,
  formatMoney,
  followLang,
  hasMessage,
  languageOf,
  loadLanguage,
  message,
  messageFor,
  registerTexts,
  toLanguage,
} from '../../src/client/i18n.js';
import { registerSharedTexts } from '../../src/client/shared-texts.js';
import { resetClient } from '../browser/billing.js';
import { nextTurn } from '../time.js';

describe('i18n', () => {
  // The shared texts (retry, close...) are registered by the elements that show them; their
  // French loads when a page first asks for it.
  before(async () => {
    registerSharedTexts();
    await loadLanguage('fr');
  });
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

/** An element that says one text of its own, in its language. */
class SpeakingElement extends LitElement {
  constructor() {
    super();
    followLang(this);
  }

  override render() {
    return message(this, 'test.greeting' as never);
  }
}
customElements.define('speaking-element', SpeakingElement);

describe('languages loaded on demand', () => {
  afterEach(() => resetClient());

  it('renders in English until the French texts arrive, then again in French', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let loads = 0;
    registerTexts(
      { 'test.greeting': 'Hello' },
      {
        fr: async () => {
          loads += 1;
          await arrived;
          return { default: { 'test.greeting': 'Bonjour' } };
        },
      },
    );
    const wrapper = await fixture<HTMLElement>(
      html`<div lang="fr">
        <speaking-element></speaking-element><speaking-element></speaking-element>
      </div>`,
    );
    const [first, second] = [...wrapper.querySelectorAll('speaking-element')] as SpeakingElement[];
    // English meanwhile, never the key.
    expect(first!.shadowRoot!.textContent).to.equal('Hello');
    expect(hasMessage('fr', 'test.greeting')).to.equal(true);
    arrive();
    await loadLanguage('fr');
    await first!.updateComplete;
    await second!.updateComplete;
    expect(first!.shadowRoot!.textContent).to.equal('Bonjour');
    expect(second!.shadowRoot!.textContent).to.equal('Bonjour');
    // Asked for by both elements and on each render: loaded once.
    expect(loads).to.equal(1);
  });

  it('follows every lang change of the page with one observer for all its elements', async () => {
    const Original = window.MutationObserver;
    let made = 0;
    window.MutationObserver = class extends Original {
      constructor(callback: MutationCallback) {
        super(callback);
        made += 1;
      }
    };
    try {
      const wrapper = await fixture<HTMLElement>(
        html`<div lang="en">
          <speaking-element></speaking-element><speaking-element></speaking-element
          ><speaking-element></speaking-element>
        </div>`,
      );
      expect(made).to.equal(1);
      const elements = [...wrapper.querySelectorAll('speaking-element')] as SpeakingElement[];
      wrapper.lang = 'fr';
      // The mutation observers' callbacks are promise jobs: nothing else marks them done.
      await nextTurn();
      await Promise.all(elements.map((element) => element.updateComplete));
      for (const element of elements) expect(element.shadowRoot!.textContent).to.equal('Bonjour');
    } finally {
      window.MutationObserver = Original;
    }
  });
});

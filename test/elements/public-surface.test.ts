import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import type { LitElement, PropertyDeclaration } from 'lit';
import '../../src/define.js';
import * as billingElements from '../../src/index.js';
import { openPortalPage } from '../../src/elements/billing-portal/open.js';
import type { BuyFeature } from '../../src/elements/buy-feature/buy-feature.js';
import type { PlanPicker } from '../../src/elements/plan-picker/plan-picker.js';
import {
  addFault,
  buyThroughProxy,
  freshStart,
  setFlakyPortalScript,
  signOut,
  until,
} from '../browser/billing.js';
import {
  closePortalDialogs,
  openConfirmation,
  part,
  pricedElement,
  standing,
  waitForDialog,
} from './buy-feature-helpers.js';

// Each element's public surface as the reference documents it (the custom-elements manifest of
// the sources, from which `npm run docs` writes docs/reference.md) against what the element does
// in this browser: the reactive properties of its class (attribute, reflection, converter,
// default), the parts and slots its shadow root shows across its states, the events it
// dispatches, and the `--billing-*` custom properties that change how it looks when a page sets
// them (each documented one must be read by its styles). What is shown must be documented; the
// manifest test (test/build/manifest.test.ts) reads the templates' source the other way, for
// what no state here reaches.

const TAGS = [
  'billing-history',
  'billing-portal',
  'buy-feature',
  'feature-gate',
  'plan-picker',
  'usage-meter',
] as const;
type Tag = (typeof TAGS)[number];

interface Named {
  name: string;
  description?: string;
}
interface ManifestField extends Named {
  kind: string;
  static?: boolean;
  privacy?: string;
  attribute?: string;
  reflects?: boolean;
  default?: string;
  type?: { text: string };
}
interface ManifestElement {
  tagName: string;
  attributes?: (Named & { fieldName?: string })[];
  members?: ManifestField[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
}

/** Native attributes an element reads, documented beside its own (no reactive property). */
const NATIVE_ATTRIBUTES = new Set(['nonce']);

/** What the browser saw of one tag, across every instance and state. */
interface Seen {
  parts: Set<string>;
  slots: Set<string>;
  /** The `--billing-*` custom properties its style sheets read. */
  customProperties: Set<string>;
  /** Those of them that changed how it looks when set on it (see `shownBy`). */
  customPropertiesShown: Set<string>;
  events: Set<string>;
}

const seen = new Map<string, Seen>(
  TAGS.map((tag) => [
    tag,
    {
      parts: new Set(),
      slots: new Set(),
      customProperties: new Set(),
      customPropertiesShown: new Set(),
      events: new Set(),
    },
  ]),
);

const isOurs = (node: unknown): node is HTMLElement =>
  node instanceof HTMLElement && seen.has(node.localName);

/** The `--billing-*` names a style sheet reads with `var()`. */
function customPropertiesRead(sheet: CSSStyleSheet): string[] {
  const text = [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
  return [...text.matchAll(/var\(\s*(--billing-[\w-]+)/g)].map((match) => match[1]!);
}

/** Records what the element's shadow root holds now. */
function record(host: HTMLElement): void {
  const root = host.shadowRoot;
  const into = seen.get(host.localName);
  if (!root || !into) return;
  for (const node of root.querySelectorAll('[part]'))
    for (const word of node.getAttribute('part')!.split(/\s+/)) if (word) into.parts.add(word);
  for (const slot of root.querySelectorAll('slot')) into.slots.add(slot.name);
  const sheets = [
    ...root.adoptedStyleSheets,
    ...[...root.querySelectorAll('style')].flatMap((style) => (style.sheet ? [style.sheet] : [])),
  ];
  for (const sheet of sheets)
    for (const name of customPropertiesRead(sheet)) into.customProperties.add(name);
}

/**
 * Watches every shadow root our elements attach from now on, so that a state shown for a moment
 * (a skeleton, a purchase in progress) counts, and records the events they dispatch.
 */
function watchElements(): () => void {
  const { attachShadow } = Element.prototype;
  const { dispatchEvent } = EventTarget.prototype;
  const observers: MutationObserver[] = [];
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = attachShadow.call(this, init);
    if (isOurs(this)) {
      const observer = new MutationObserver(() => record(root.host as HTMLElement));
      observer.observe(root, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['part', 'name'],
      });
      observers.push(observer);
    }
    return root;
  };
  EventTarget.prototype.dispatchEvent = function (this: EventTarget, event: Event) {
    if (isOurs(this)) seen.get(this.localName)!.events.add(event.type);
    return dispatchEvent.call(this, event);
  };
  return () => {
    Element.prototype.attachShadow = attachShadow;
    EventTarget.prototype.dispatchEvent = dispatchEvent;
    for (const observer of observers) observer.disconnect();
  };
}

/** The computed properties a `--billing-*` custom property can end up in. */
const STYLED = [
  'color',
  'background-color',
  'background-image',
  'border-top-color',
  'border-left-color',
  'border-top-left-radius',
  'outline-color',
  'box-shadow',
  'font-size',
  'padding-top',
  'padding-left',
  'row-gap',
  'column-gap',
  'height',
  'min-height',
  'color-scheme',
  'accent-color',
  'transition-duration',
  'fill',
];

/** A value of the custom property's kind, unlike any default. */
function sentinelFor(name: string): string {
  if (name.endsWith('color-scheme')) return 'dark';
  if (name.endsWith('duration')) return '1234ms';
  if (name.endsWith('focus-ring')) return '0 0 0 7px rgb(1, 2, 3)';
  if (/(radius|space|size|height)$/.test(name)) return '37px';
  return 'rgb(1, 2, 3)';
}

/** How the element and every node of its shadow root look now. */
function looks(host: HTMLElement): string {
  const nodes = [host, ...host.shadowRoot!.querySelectorAll('*')];
  return nodes
    .map((node) => {
      const style = getComputedStyle(node);
      const backdrop =
        node.localName === 'dialog' ? getComputedStyle(node, '::backdrop').backgroundColor : '';
      return `${STYLED.map((property) => style.getPropertyValue(property)).join('|')}|${backdrop}`;
    })
    .join('\n');
}

/**
 * Whether setting the custom property on the element changes how it looks, as a host page would
 * set it. The focus ring's properties show on a focused control only: they count when the
 * element has one.
 */
function shownBy(host: HTMLElement, name: string): boolean {
  if (name.startsWith('--billing-focus-'))
    return !!host.shadowRoot!.querySelector('button, input, select, textarea, a[href], [tabindex]');
  const before = looks(host);
  host.style.setProperty(name, sentinelFor(name));
  const after = looks(host);
  host.style.removeProperty(name);
  return after !== before;
}

/**
 * Every element of ours in the document, at the end of a state: recorded as it stands, and each
 * custom property its styles read tried on it.
 */
function recordAll(): void {
  for (const tag of TAGS) {
    const into = seen.get(tag)!;
    for (const element of document.querySelectorAll<HTMLElement>(tag)) {
      record(element);
      for (const name of into.customProperties)
        if (!into.customPropertiesShown.has(name) && shownBy(element, name))
          into.customPropertiesShown.add(name);
    }
  }
}

/** Waits for every element of ours under `root` to leave its loading state. */
async function settledAll(root: Element): Promise<void> {
  const all = [...root.querySelectorAll<LitElement>(TAGS.join(','))];
  if (TAGS.includes(root.localName as Tag)) all.unshift(root as LitElement);
  await until(
    () => all.every((element) => element.getAttribute('state') !== 'loading'),
    `${all.map((element) => element.localName).join(', ')} to settle`,
    10_000,
  );
  for (const element of all) await element.updateComplete;
  recordAll();
}

/** A meter per kind of feature in one region: a quantity, a consumption, an on/off one. */
const dashboard = () =>
  html`<section aria-label="Plan usage" data-billing-region>
    <usage-meter feature="seats" label="Seats"></usage-meter>
    <usage-meter feature="api-calls"></usage-meter>
    <usage-meter feature="sso"></usage-meter>
  </section>`;

/** The states each element is shown in: its usual ones, and those a docs reader styles. */
const STATES: Record<Tag, Record<string, () => Promise<void>>> = {
  'usage-meter': {
    'figures, a consumption and an on/off feature': async () => {
      await freshStart('healthy');
      await settledAll(await fixture(dashboard()));
    },
    'every feature (list mode)': async () => {
      await freshStart('healthy');
      await settledAll(await fixture(html`<usage-meter></usage-meter>`));
    },
    'seats bought beyond the plan': async () => {
      await freshStart('healthy');
      const meter = await fixture(html`<usage-meter feature="seats"></usage-meter>`);
      await settledAll(meter);
      await buyThroughProxy('seats', 3);
      await until(() => part(meter, 'extra') !== null, 'the extra seats');
      recordAll();
    },
    'the critical level': async () => {
      await freshStart('healthy');
      await settledAll(
        await fixture(
          html`<usage-meter feature="api-calls" critical-threshold="0.1"></usage-meter>`,
        ),
      );
    },
    'unlimited access': async () => {
      await freshStart('unlimited');
      await settledAll(await fixture(dashboard()));
    },
    'no subscription, one remedy per region': async () => {
      await freshStart('no-subscription');
      await settledAll(await fixture(dashboard()));
    },
    'a feature the plan lacks': async () => {
      await freshStart('starter-plan');
      await settledAll(await fixture(html`<usage-meter feature="seats"></usage-meter>`));
    },
    'a plan waiting for its checkout': async () => {
      await freshStart('pending');
      await settledAll(await fixture(dashboard()));
    },
    'signed out': async () => {
      await freshStart('healthy');
      signOut();
      await settledAll(
        await fixture(html`<usage-meter feature="seats" sign-in-url="/sign-in"></usage-meter>`),
      );
    },
    'the proxy down': async () => {
      await freshStart('healthy');
      await addFault({ route: 'GET /v1/Usages', mode: 'status-500', times: 3 });
      await settledAll(await fixture(dashboard()));
    },
  },
  'buy-feature': {
    'a price, its confirmation and the purchase': async () => {
      await freshStart('healthy');
      const element = await pricedElement(html`<buy-feature feature="seats"></buy-feature>`);
      await openConfirmation(element);
      recordAll();
      part<HTMLButtonElement>(element, 'confirm')!.click();
      await until(() => part(element, 'success') !== null, 'the purchase to succeed', 10_000);
      recordAll();
    },
    'a quantity out of range': async () => {
      await freshStart('healthy');
      const element = await pricedElement(
        html`<buy-feature feature="seats" max="3" label="seats" label-one="seat"></buy-feature>`,
      );
      element.quantity = 5;
      await until(() => part(element, 'invalid') !== null, 'the quantity to be refused');
      recordAll();
    },
    'a decrease': async () => {
      await freshStart('healthy');
      // 7 seats, 5 of them included: 2 can be removed.
      await buyThroughProxy('seats', 4);
      const element = await pricedElement(
        html`<buy-feature feature="seats" quantity="2" allow-decrease></buy-feature>`,
      );
      await until(() => part(element, 'decrease-text') !== null, 'the decrease row', 10_000);
      recordAll();
    },
    'an add-on': async () => {
      await freshStart('starter-plan');
      const element = await fixture<BuyFeature>(
        html`<buy-feature feature="priority-support"></buy-feature>`,
      );
      await standing(element, 'available');
      recordAll();
    },
    'unlimited access': async () => {
      await freshStart('unlimited');
      const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
      await until(() => part(element, 'unlimited') !== null, 'unlimited access said');
      recordAll();
    },
    'no payment method: a unit price': async () => {
      await freshStart('no-payment-method');
      const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
      await until(() => part(element, 'unit-price') !== null, 'the unit price', 10_000);
      recordAll();
    },
    'overdue invoices: a remedy': async () => {
      await freshStart('capping-reached');
      const element = await fixture<BuyFeature>(html`<buy-feature feature="seats"></buy-feature>`);
      await until(() => part(element, 'remedy') !== null, 'the remedy', 10_000);
      recordAll();
    },
  },
  'billing-portal': {
    'a page embedded': async () => {
      await freshStart('healthy');
      const portal = await fixture(html`<billing-portal page="home"></billing-portal>`);
      await until(() => portal.getAttribute('state') === 'open', 'the portal open', 10_000);
      recordAll();
    },
    'a link': async () => {
      await freshStart('healthy');
      await settledAll(
        await fixture(html`<billing-portal mode="link" page="offers"></billing-portal>`),
      );
    },
    'a script that does not load': async () => {
      await freshStart('healthy');
      await setFlakyPortalScript(true);
      delete (window as { ServicePortal?: unknown }).ServicePortal;
      const portal = await fixture(
        html`<billing-portal page="home" endpoint="/billing-flaky"></billing-portal>`,
      );
      await until(() => portal.getAttribute('state') === 'error', 'the failure', 10_000);
      recordAll();
    },
    'a modal opened by a remedy': async () => {
      await freshStart('healthy');
      await openPortalPage({ page: 'home' });
      const portal = document.querySelector('body > billing-portal')!;
      await until(() => portal.querySelector('iframe') !== null, 'the hosted page', 10_000);
      recordAll();
      await closePortalDialogs();
    },
  },
  'plan-picker': {
    'the offers and a change confirmed': async () => {
      await freshStart('healthy');
      const picker = await fixture<PlanPicker>(html`<plan-picker></plan-picker>`);
      await waitUntil(() => part(picker, 'offer') !== null, 'the offers', { timeout: 10_000 });
      recordAll();
      picker.shadowRoot!.querySelector<HTMLButtonElement>('[data-offer="business"]')!.click();
      await waitForDialog(picker);
      recordAll();
      part<HTMLButtonElement>(picker, 'cancel')!.click();
      await waitForDialog(picker, false);
    },
    'a discount': async () => {
      await freshStart('discounted');
      const picker = await fixture(html`<plan-picker></plan-picker>`);
      await waitUntil(() => part(picker, 'offer') !== null, 'the offers', { timeout: 10_000 });
      recordAll();
    },
    'the offers failing to load': async () => {
      await freshStart('healthy');
      await addFault({ route: 'GET /v1/Offers', mode: 'status-500', times: 3 });
      const picker = await fixture(html`<plan-picker></plan-picker>`);
      await waitUntil(
        () => part(picker, 'offer') !== null || part(picker, 'error') !== null,
        'the offers or their failure',
        { timeout: 10_000 },
      );
      recordAll();
    },
  },
  'feature-gate': {
    granted: async () => {
      await freshStart('healthy');
      await settledAll(
        await fixture(html`<feature-gate feature="sso"><p>Content</p></feature-gate>`),
      );
    },
    denied: async () => {
      await freshStart('starter-plan');
      await settledAll(
        await fixture(html`<feature-gate feature="seats" min="10"><p>Content</p></feature-gate>`),
      );
    },
    pending: async () => {
      await freshStart('pending');
      await settledAll(
        await fixture(html`<feature-gate feature="sso"><p>Content</p></feature-gate>`),
      );
    },
  },
  'billing-history': {
    'invoices over several pages': async () => {
      await freshStart('discounted');
      await settledAll(await fixture(html`<billing-history page-size="1"></billing-history>`));
    },
    'overdue invoices': async () => {
      await freshStart('capping-reached');
      await settledAll(await fixture(html`<billing-history></billing-history>`));
    },
    'no invoice yet': async () => {
      await freshStart('healthy');
      await settledAll(await fixture(html`<billing-history></billing-history>`));
    },
    'signed out': async () => {
      await freshStart('healthy');
      signOut();
      await settledAll(
        await fixture(html`<billing-history sign-in-url="/sign-in"></billing-history>`),
      );
    },
    'the proxy down': async () => {
      await freshStart('healthy');
      await addFault({ route: 'GET /v1/Invoices', mode: 'status-500', times: 3 });
      await settledAll(await fixture(html`<billing-history></billing-history>`));
    },
  },
};

/** A manifest default (`''`, `0.8`, `null`, `[]`...) as a value; a name is a public export's. */
function defaultValue(text: string): unknown {
  if (/^[A-Z][A-Z0-9_]*$/.test(text)) {
    expect(billingElements, `${text} is exported by the package`).to.have.property(text);
    return (billingElements as Record<string, unknown>)[text];
  }
  return JSON.parse(text.replace(/^'(.*)'$/, '"$1"'));
}

const names = (list: Named[] | undefined) => new Set((list ?? []).map((item) => item.name));
const sorted = (set: Iterable<string>) => [...set].sort();

describe('the public surface of each element, as documented and as rendered', () => {
  let manifest: ManifestElement[] = [];
  let unwatch: () => void = () => undefined;
  before(async function () {
    // The server analyses the sources on the first request: a few seconds.
    this.timeout(60_000);
    const response = await fetch('/_test/manifest');
    const { modules } = (await response.json()) as {
      modules: { declarations?: (ManifestElement & { customElement?: boolean })[] }[];
    };
    manifest = modules.flatMap((module) =>
      (module.declarations ?? []).filter((declaration) => declaration.customElement),
    );
    unwatch = watchElements();
  });
  after(() => unwatch());
  afterEach(closePortalDialogs);

  const documented = (tag: Tag) => {
    const element = manifest.find((candidate) => candidate.tagName === tag);
    expect(element, `<${tag}> in the manifest`).to.not.equal(undefined);
    return element!;
  };

  it('documents the six elements, each with a theme', () => {
    expect(sorted(manifest.map((element) => element.tagName))).to.deep.equal([...TAGS]);
    for (const tag of TAGS) {
      const element = documented(tag);
      expect(names(element.attributes), `<${tag}> documents theme`).to.include('theme');
      const theme = element.members!.find((member) => member.name === 'theme');
      expect(theme?.description, `<${tag}> says what theme does`).to.match(/\S/);
    }
  });

  for (const tag of TAGS) {
    describe(`<${tag}>`, () => {
      it('documents each reactive property: attribute, reflection, converter, default', () => {
        const element = documented(tag);
        const fields = new Map(
          (element.members ?? [])
            .filter((member) => member.kind === 'field' && !member.static)
            .map((member) => [member.name, member]),
        );
        const ElementClass = customElements.get(tag) as unknown as typeof LitElement;
        const fresh = document.createElement(tag) as unknown as Record<string, unknown>;
        const attributes = new Set<string>();
        for (const [key, options] of ElementClass.elementProperties as Map<
          PropertyKey,
          PropertyDeclaration
        >) {
          const name = String(key);
          const field = fields.get(name);
          if (options.state) {
            expect(field, `internal state ${name} is not documented`).to.equal(undefined);
            continue;
          }
          expect(field, `property ${name} is documented`).to.not.equal(undefined);
          expect(field!.description, `${name} has a description`).to.match(/\S/);
          const attribute =
            options.attribute === false
              ? undefined
              : typeof options.attribute === 'string'
                ? options.attribute
                : name.toLowerCase();
          if (attribute) attributes.add(attribute);
          expect(field!.attribute, `${name}'s attribute`).to.equal(attribute);
          expect(!!field!.reflects, `${name} reflects`).to.equal(!!options.reflect);
          if (options.type === Number) expect(field!.type?.text, name).to.match(/\bnumber\b/);
          if (options.type === Boolean) expect(field!.type?.text, name).to.match(/\bboolean\b/);
          const actual = fresh[name];
          if (field!.default === undefined)
            expect(actual, `${name} has no default, as documented`).to.equal(undefined);
          else expect(actual, `${name}'s default`).to.deep.equal(defaultValue(field!.default));
        }
        const documentedAttributes = [...names(element.attributes)].filter(
          (name) => !NATIVE_ATTRIBUTES.has(name),
        );
        expect(sorted(documentedAttributes), 'documented attributes').to.deep.equal(
          sorted(attributes),
        );
      });

      it('documents every part, slot, custom property and event it shows across its states', async function () {
        this.timeout(120_000);
        for (const [state, show] of Object.entries(STATES[tag])) {
          try {
            await show();
          } catch (error) {
            throw new Error(`<${tag}>, ${state}: ${(error as Error).message}`, { cause: error });
          }
          // Each state alone on the page: one element's remedy never stands for another's.
          fixtureCleanup();
          await closePortalDialogs();
        }
        const element = documented(tag);
        const got = seen.get(tag)!;
        // A test that saw nothing proves nothing.
        expect(got.parts.size, 'parts seen').to.be.greaterThan(0);
        expect(got.customProperties.size, 'custom properties read').to.be.greaterThan(0);

        const undocumented = (shown: Set<string>, list: Named[] | undefined) =>
          sorted([...shown].filter((name) => !names(list).has(name)));
        const checks: [Set<string>, Named[] | undefined, string][] = [
          [got.parts, element.cssParts, 'parts rendered, not documented'],
          [got.slots, element.slots, 'slots rendered, not documented'],
          [got.events, element.events, 'events dispatched, not documented'],
          [
            got.customPropertiesShown,
            element.cssProperties,
            'custom properties that change how it looks, not documented',
          ],
        ];
        for (const [shown, list, what] of checks)
          expect(undocumented(shown, list), what).to.deep.equal([]);
        const read = (name: string) => got.customProperties.has(name);
        expect(
          sorted([...names(element.cssProperties)].filter((name) => !read(name))),
          'custom properties documented, never read by its styles',
        ).to.deep.equal([]);
      });
    });
  }
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { defaultFixtures } from '../../src/sandbox/index.js';
import { useTestSandbox } from '../sandbox/helpers.js';
import { openPage, openQuery, type HostedPageView } from '../sandbox/hosted-pages.js';
import {
  avoidedWords,
  typographyProblems,
  vocabularyProblems,
  type FoundText,
  type TextLanguage,
} from './texts.js';

// The hosted pages' words as a customer reads them: many are built at run time (a plan's
// features, a state's badge, a title with the plan's name), so reading the sources cannot find
// them. Every page the service links for each fixture customer is opened in English and in
// French, and its text is held to the glossary (docs/glossary.md) and the typography rules.

const glossary = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8');
const avoided = avoidedWords(glossary);

const CUSTOMERS = [
  'healthy',
  'no-payment-method',
  'capping-reached',
  'suspended',
  'starter-plan',
  'unlimited',
  'discounted',
  'pending',
  'no-subscription',
];

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#96': '`',
  nbsp: '\u00a0',
};

/** The text of a page, one piece per run of text between tags, with what its labels say. */
export function pageTexts(html: string): string[] {
  const body = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ');
  const labels = [...body.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map(
    (match) => match[1] ?? '',
  );
  return [...labels, ...body.split(/<[^>]*>/)]
    .map((piece) =>
      piece
        .replace(/&(#?\w+);/g, (entity, name: string) => ENTITIES[name] ?? entity)
        .replace(/[ \t\n\r]+/g, ' ')
        .trim(),
    )
    .filter((piece) => /\p{L}/u.test(piece));
}

/**
 * The words of a list item as the old plan lists wrote them ("5 · Seats"), which the glossary
 * and the rule both refuse: the check below must find them, or it proves nothing.
 */
const OLD_PLAN_LIST = ['5 · Seats', 'Unlimited · Projects', '5 · Sièges'];

/** The fixtures' names in every language: people, the business, plans, features, discounts. */
function fixtureNames(): { people: string[]; things: string[] } {
  const fixtures = defaultFixtures();
  const titles = (items: { title?: string | Record<string, string> }[] = []) =>
    items.flatMap(({ title }) =>
      title === undefined ? [] : typeof title === 'string' ? [title] : Object.values(title),
    );
  return {
    people: [
      fixtures.business.name,
      ...(fixtures.customers ?? []).map((customer) => customer.name),
    ],
    things: [
      ...titles(fixtures.offers),
      ...titles(fixtures.features),
      ...titles(fixtures.discounts),
    ],
  };
}

const NAMES = fixtureNames();

function problemsOf(page: HostedPageView, language: TextLanguage): string[] {
  const texts = pageTexts(page.html);
  const found = (text: string): FoundText => ({ where: page.url, language, text });
  // A person's name ("Paula Pending") is not the service's words; a plan's or a feature's name
  // keeps its capital after a colon ("Offre sur mesure : Enterprise").
  const people = texts.map((text) =>
    NAMES.people.reduce((rest, name) => rest.replaceAll(name, '{name}'), text),
  );
  const named = people.map((text) =>
    NAMES.things.reduce((rest, name) => rest.replaceAll(`: ${name}`, ': {name}'), text),
  );
  return [
    ...vocabularyProblems(people.map(found), avoided),
    ...typographyProblems(named.map(found)),
  ];
}

interface Link {
  rel: string;
  href?: string;
  query?: string;
}

describe('the hosted pages at run time', () => {
  const t = useTestSandbox();

  /** Every page the service links for `customer`: its subscription's, its own, its invoices'. */
  async function linksOf(customer: string): Promise<Link[]> {
    const links: Link[] = [];
    const subscription = await t.api('GET', `/v1/Subscription?ReferenceCustomer=${customer}`);
    if (subscription.status === 200) links.push(...subscription.body.Links);
    for (const offer of ['', '&ReferenceOffer=pro']) {
      const own = await t.api('GET', `/v1/Customer?ReferenceCustomer=${customer}${offer}`);
      links.push(...own.body.Links);
    }
    for (const { Id } of (await t.customer(customer)).invoices ?? [])
      links.push(...(await t.api('GET', `/v1/Invoice/${Id}`)).body.Links);
    // An in-site link without a query is the business's own page (its installation URL).
    return links.filter(
      (link) =>
        (link.rel.startsWith('hosted-') && link.href) ||
        (link.rel.startsWith('insite-') && link.query),
    );
  }

  async function open(customer: string, link: Link, lang: 'en' | 'fr') {
    if (link.rel.startsWith('hosted-') && link.href)
      return openPage(`${link.href}${link.href.includes('?') ? '&' : '?'}lang=${lang}`);
    return openQuery(t, customer, link.query ?? '', lang);
  }

  it('finds the plan lists’ old wording', () => {
    const page = {
      url: 'old',
      status: 200,
      html: OLD_PLAN_LIST.map((line) => `<li>${line}</li>`).join(''),
    };
    assert.equal(problemsOf(page, 'en').length >= 2, true);
    assert.equal(problemsOf(page, 'fr').length >= 1, true);
  });

  for (const language of ['en', 'fr'] as const) {
    it(`every linked page of every customer says the glossary’s words (${language})`, async () => {
      const problems = new Set<string>();
      let pages = 0;
      const read = new Set<string>();
      for (const customer of CUSTOMERS) {
        for (const link of await linksOf(customer)) {
          const page = await open(customer, link, language);
          if (read.has(page.url)) continue;
          read.add(page.url);
          assert.equal(page.status, 200, `${customer} ${link.rel}: ${page.url}`);
          pages += 1;
          for (const problem of problemsOf(page, language))
            problems.add(`${customer} ${link.rel}: ${problem}`);
        }
      }
      // Each customer's portal, offers, register and invoices at least.
      assert.ok(pages >= 40, `only ${pages} pages read`);
      assert.deepEqual([...problems], []);
    });
  }
});

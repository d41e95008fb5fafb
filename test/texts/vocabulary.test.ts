import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  avoidedWords,
  customerTexts,
  typographyProblems,
  vocabularyProblems,
  type FoundText,
} from './texts.js';

// One word per concept, in English and French, across the elements, the sandbox's portal and
// hosted pages and the demo: the glossary (docs/glossary.md) lists the words to avoid, and this
// test reads every customer text for them, and every French text for its typography.

const glossary = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8');
const avoided = avoidedWords(glossary);
const texts = customerTexts();

describe('one vocabulary (docs/glossary.md)', () => {
  it('reads the glossary and finds texts in both languages everywhere', () => {
    assert.ok(avoided.length >= 30, `only ${avoided.length} avoided words read`);
    for (const language of ['en', 'fr'] as const)
      assert.ok(avoided.some((word) => word.language === language));
    const from = (prefix: string, language?: string) =>
      texts.filter(
        (text) => text.where.startsWith(prefix) && (!language || text.language === language),
      ).length;
    // Each source gives its texts: a collector that silently read nothing would pass anything.
    assert.ok(from('src/client/shared-texts.fr.ts', 'fr') >= 40);
    assert.ok(from('src/client/shared-texts.ts', 'en') >= 40);
    assert.ok(from('src/elements/buy-feature/messages.fr.ts', 'fr') >= 50);
    assert.ok(from('src/elements/buy-feature/messages.ts', 'en') >= 50);
    assert.ok(from('src/elements/plan-picker/messages.ts', 'en') >= 40);
    assert.ok(from('src/elements/plan-picker/messages.fr.ts', 'fr') >= 40);
    assert.ok(from('src/sandbox/hosted/messages.ts', 'fr') >= 100);
    assert.ok(from('src/sandbox/hosted/pages-') >= 5);
    assert.ok(from('src/sandbox/billing/', 'fr') >= 4);
    assert.ok(from('demo/') >= 50);
  });

  it('finds an avoided word, whatever the case of its first letter', () => {
    const planted: FoundText[] = [
      { where: 'a.ts:1', language: 'en', text: 'Settle your invoices' },
      { where: 'b.ts:1', language: 'fr', text: 'Finalisez la souscription' },
      { where: 'c.ts:1', language: 'any', text: 'Update your payment details' },
      // A word of the other language's list is not one to avoid here.
      { where: 'd.ts:1', language: 'en', text: 'Single sign-on is on' },
    ];
    const problems = vocabularyProblems(planted, avoided);
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      ['a.ts', 'b.ts', 'c.ts'],
    );
  });

  it('no customer text uses a word the glossary says to avoid', () => {
    assert.deepEqual(vocabularyProblems(texts, avoided), []);
  });
});

describe('French typography', () => {
  it('finds each broken rule', () => {
    const french = (text: string): FoundText => ({ where: 'x.ts:1', language: 'fr', text });
    const broken = [
      'Ajouter {label} ?',
      'Ajouter {label}?',
      'Suspendu : paiement en retard',
      'Suspendu: paiement en retard',
      'Suspendu\u00a0: Paiement en retard',
      '1 × Sièges',
      '{amount} / mois',
    ].map(french);
    assert.equal(typographyProblems(broken).length, broken.length);
    const right = [
      'Ajouter l’option {label}\u202f?',
      'Suspendu\u00a0: paiement en retard',
      '{amount}\u00a0/\u00a0mois',
      'Sièges\u00a0: 2 en supplément',
    ].map(french);
    assert.deepEqual(typographyProblems(right), []);
    const markup: FoundText = { where: 'y.ts:1', language: 'any', text: '{…}: {…}' };
    assert.equal(typographyProblems([markup]).length, 1);
  });

  it('every French text follows it, and every price keeps its period on its line', () => {
    assert.deepEqual(typographyProblems(texts), []);
  });
});

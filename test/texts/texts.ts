import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// Every text a customer reads, gathered from the sources that hold them: the elements' message
// tables, the sandbox's hosted pages, portal, price lines and fixtures, and the demo's pages and
// scripts. Each text carries its language when its place tells it (a `[en, fr]` pair, an `en:`
// or `fr:` property, a `const fr = {...}` table, a French `lang`, a value of the elements' text
// tables: English in `messages.ts`, French in `messages.fr.ts`), else `any`.

export type TextLanguage = 'en' | 'fr' | 'any';

export interface FoundText {
  /** Where it was found: the file and line. */
  where: string;
  language: TextLanguage;
  text: string;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The files whose every text a customer may read. The sandbox's API and billing rules write
 * messages for developers (error messages), so only their localized labels are read:
 * `LABEL_ONLY` files give their `en:` and `fr:` texts alone.
 */
const CUSTOMER_FILES = [
  'src/client/shared-texts.ts',
  'src/client/shared-texts.fr.ts',
  'src/elements',
  'src/sandbox/hosted',
  'src/sandbox/portal',
  'src/sandbox/i18n.ts',
  'demo',
  'index.html',
];
const LABEL_ONLY_FILES = [
  'src/sandbox/billing',
  'src/sandbox/fixtures/default.ts',
  'src/sandbox/catalog.ts',
];

/** In the elements, only the message tables hold words: the rest is markup and logic. */
function isTextFile(path: string): boolean {
  if (path.startsWith('src/elements/')) return /\/([a-z]+-)?messages(\.fr)?\.ts$/.test(path);
  return /\.(ts|html)$/.test(path) && !path.endsWith('.d.ts');
}

/**
 * The language of the elements' text tables, one language per file: English in `messages.ts`
 * (or a table an element loads on demand, such as `overrun-messages.ts`) and `shared-texts.ts`,
 * French in their `.fr.ts` modules; undefined for any other file.
 */
function tableLanguage(path: string): 'en' | 'fr' | undefined {
  if (!/^src\/(elements\/[^/]+\/([a-z]+-)?messages|client\/shared-texts)(\.fr)?\.ts$/.test(path))
    return undefined;
  return path.endsWith('.fr.ts') ? 'fr' : 'en';
}

/** Whether a literal is the value of a property (`'meter.of': '{used} of {total}'`), not its key. */
function isPropertyValue(node: ts.Node): boolean {
  return ts.isPropertyAssignment(node.parent) && node.parent.initializer === node;
}

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(join(path, name)));
}

/** Whether a string is words a person reads (two words or more), rather than a key or a path. */
function isWords(text: string): boolean {
  return /\p{L}{2,}[\s\u00a0\u202f]+[\p{L}{]/u.test(text);
}

/** The language a literal's place tells, walking up to the nearest telling ancestor. */
function languageOfNode(node: ts.Node): 'en' | 'fr' | undefined {
  let child: ts.Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) {
      const name = parent.name.getText();
      if (name === 'en' || name === 'fr') return name;
    }
    if (ts.isArrayLiteralExpression(parent) && parent.elements.length === 2) {
      const strings = parent.elements.every(
        (element) => ts.isStringLiteralLike(element) || ts.isTemplateExpression(element),
      );
      if (strings) return parent.elements.indexOf(child as ts.Expression) === 0 ? 'en' : 'fr';
    }
    if (ts.isSourceFile(parent)) break;
  }
  return undefined;
}

/** A template literal with its substitutions written `{…}`, as the message tables write them. */
function templateText(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span) => `{…}${span.literal.text}`).join('');
}

function textsOfScript(path: string, source: string, labelsOnly: boolean): FoundText[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: FoundText[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = templateText(node);
    // Markup written in a template (the hosted pages): its text between tags.
    // A module's path is not words, whether imported statically or on demand (`import('…')`).
    const imported = (parent: ts.Node) =>
      ts.isImportDeclaration(parent) ||
      (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword);
    // A property's name (`'status.pending': …`) is a key, never words.
    const key =
      node.parent !== undefined &&
      ts.isPropertyAssignment(node.parent) &&
      node.parent.name === node;
    if (text !== undefined && !imported(node.parent) && !key) {
      // The demo app's own words are English, whatever the page's language (the elements'
      // French labels are in tables that say `fr`).
      const table = isPropertyValue(node) ? tableLanguage(path) : undefined;
      const told = table ?? languageOfNode(node);
      const language = told ?? (path.startsWith('demo/') ? 'en' : 'any');
      const words = text.includes('<') ? textOfMarkup(text) : [text];
      const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      for (const piece of words) {
        if (told === undefined && (labelsOnly || !(isWords(piece) || LABEL_COLON.test(piece))))
          continue;
        // Style sheets written in a script ("--billing-accent: …") are not words.
        if (!(/\p{L}/u.test(piece) || LABEL_COLON.test(piece)) || piece.startsWith('--')) continue;
        found.push({ where: `${path}:${line}`, language, text: piece });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A colon written after a substitution in markup ("${t.state}: …"). */
const LABEL_COLON = /\{…\}:(?:\s|$)/u;

const READ_ATTRIBUTES = /\s(?:label|label-one|aria-label|title|placeholder|alt)="([^"{]*)"/g;

/** The words of a piece of markup: its text between tags and its readable attributes. */
function textOfMarkup(markup: string): string[] {
  const cleaned = markup
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ');
  const attributes = [...cleaned.matchAll(READ_ATTRIBUTES)].map((match) => match[1] ?? '');
  const between = cleaned
    .replace(/<[^>]*>/g, '\n')
    .split('\n')
    .map((piece) => piece.replace(/\s+/g, ' ').trim());
  return [...attributes, ...between].filter(
    (piece) => /\p{L}{2,}/u.test(piece) || LABEL_COLON.test(piece),
  );
}

function textsOfMarkupFile(path: string, source: string): FoundText[] {
  const language: TextLanguage = /<html[^>]*\slang="fr/.test(source) ? 'fr' : 'en';
  return textOfMarkup(source).map((text) => ({ where: path, language, text }));
}

/** Every text a customer may read, with where it is and its language. */
export function customerTexts(): FoundText[] {
  const read = (paths: string[], labelsOnly: boolean) =>
    paths
      .flatMap(filesUnder)
      .map((path) => relative(ROOT, join(ROOT, path)))
      .filter(isTextFile)
      .flatMap((path) => {
        const source = readFileSync(join(ROOT, path), 'utf8');
        return path.endsWith('.html')
          ? textsOfMarkupFile(path, source)
          : textsOfScript(path, source, labelsOnly);
      });
  return [...read(CUSTOMER_FILES, false), ...read(LABEL_ONLY_FILES, true)];
}

/** A variant the glossary says to avoid, in a language. */
export interface AvoidedWord {
  concept: string;
  language: 'en' | 'fr';
  variant: string;
  /** The word to use instead. */
  use: string;
}

/**
 * The Avoid columns of docs/glossary.md's table: `| concept | English | Avoid (English) |
 * French | Avoid (French) |`, each Avoid cell a list of backticked variants.
 */
export function avoidedWords(glossary: string): AvoidedWord[] {
  const rows = glossary
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => cells.length === 5 && cells[0] !== 'Concept');
  const variants = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  return rows.flatMap(([concept = '', en = '', avoidEn = '', fr = '', avoidFr = '']) => [
    ...variants(avoidEn).map((variant) => ({ concept, language: 'en' as const, variant, use: en })),
    ...variants(avoidFr).map((variant) => ({ concept, language: 'fr' as const, variant, use: fr })),
  ]);
}

/** The variant as written, and with the case of its first letter swapped. */
function spellings(variant: string): string[] {
  const first = variant.charAt(0);
  const swapped = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return [variant, swapped + variant.slice(1)];
}

/** The avoided words each text uses: a text of `any` language is checked against both. */
export function vocabularyProblems(texts: FoundText[], avoided: AvoidedWord[]): string[] {
  const problems: string[] = [];
  for (const { where, language, text } of texts) {
    for (const word of avoided) {
      if (language !== 'any' && language !== word.language) continue;
      const pattern = new RegExp(
        `(?<![\\p{L}])(?:${spellings(word.variant).map(escape).join('|')})(?![\\p{L}])`,
        'u',
      );
      if (pattern.test(text))
        problems.push(`${where}: "${text}" says "${word.variant}": say "${word.use}"`);
    }
  }
  return problems;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PERIOD_WORDS = 'month|year|day|week|mois|an|jour|semaine';

/** The typography rules every French text follows, each with what it finds. */
export const FRENCH_TYPOGRAPHY: readonly { rule: string; finds: RegExp }[] = [
  { rule: 'U+202F before ; ? !', finds: /(?:[^\u202f\s]|[ \u00a0])[;?!](?=\s|$)/u },
  { rule: 'U+00A0 before :', finds: /(?:[^\u00a0\s/]|[ \u202f]):(?=\s|$)/u },
  { rule: 'no capital after a colon', finds: /:[\s\u00a0]+(?!(?:URL|API|SSO|E-mail)\b)\p{Lu}/u },
  { rule: 'no "N × Name": a count glued to a capitalised name', finds: /\d\s*×\s*\p{Lu}/u },
];

/** The rules both languages follow: a price keeps its period on its line. */
export const SHARED_TYPOGRAPHY: readonly { rule: string; finds: RegExp }[] = [
  {
    rule: 'no-break spaces around the slash of a period ("$19.00 / month")',
    finds: new RegExp(`(?: /|/ )(?:\\d+ )?(?:${PERIOD_WORDS})\\b`, 'u'),
  },
  {
    rule: 'a plan\'s quantity is "Seats: 5", never glued to the name ("5 · Seats")',
    finds: /(?:\d|Unlimited|Illimité)\s*·\s*\p{Lu}/u,
  },
];

/**
 * The rule of a text in either language (the hosted pages' markup): a label's colon comes from
 * the language's messages, which put the no-break space before it in French.
 */
export const ANY_LANGUAGE_TYPOGRAPHY: readonly { rule: string; finds: RegExp }[] = [
  { rule: 'a colon after a label comes from the messages (t.colon)', finds: LABEL_COLON },
];

/** The typography rules a text breaks. */
export function typographyProblems(texts: FoundText[]): string[] {
  const problems: string[] = [];
  for (const { where, language, text } of texts) {
    const rules =
      language === 'fr'
        ? [...FRENCH_TYPOGRAPHY, ...SHARED_TYPOGRAPHY]
        : language === 'any'
          ? [...ANY_LANGUAGE_TYPOGRAPHY, ...SHARED_TYPOGRAPHY]
          : SHARED_TYPOGRAPHY;
    for (const { rule, finds } of rules) {
      if (finds.test(text)) problems.push(`${where}: "${text}" breaks "${rule}"`);
    }
  }
  return problems;
}

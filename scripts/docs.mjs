// `npm run docs`: the element reference (docs/reference.md) generated from the custom-elements
// manifest, itself generated from the elements' JSDoc headers and Lit properties, so the tables
// cannot drift from the code.
// Usage: node scripts/docs.mjs           writes docs/reference.md
//        node scripts/docs.mjs --check   fails when docs/reference.md differs from a fresh one
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const REFERENCE = join(root, 'docs', 'reference.md');
export const MANIFEST = join(root, 'dist', 'custom-elements.json');

/** The manifest of the current sources (the analyzer's `cli` without writing anything). */
export async function analyze() {
  const { cli } = await import('@custom-elements-manifest/analyzer/cli.js');
  const manifest = await cli({
    argv: ['analyze', '--config', join(root, 'custom-elements-manifest.config.mjs')],
    cwd: root,
    noWrite: true,
  });
  // Stable output whatever order the file system lists the modules in.
  manifest.modules.sort((a, b) => a.path.localeCompare(b.path));
  return manifest;
}

/** Writes the manifest, by default to dist/custom-elements.json (the build calls this). */
export async function writeManifest(manifest, file = MANIFEST) {
  const data = manifest ?? (await analyze());
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return data;
}

/** Every element class of the manifest, by tag. */
export function elementsOf(manifest) {
  const elements = [];
  for (const module of manifest.modules ?? []) {
    for (const declaration of module.declarations ?? []) {
      if (declaration.kind === 'class' && declaration.customElement && declaration.tagName) {
        elements.push({ ...declaration, modulePath: module.path });
      }
    }
  }
  return elements.sort((a, b) => a.tagName.localeCompare(b.tagName));
}

const isPublic = (member) =>
  !member.static &&
  (member.privacy ?? 'public') === 'public' &&
  !member.name.startsWith('#') &&
  !member.name.startsWith('_');

/** One table cell: no line breaks, pipes escaped. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
const code = (text) => (text ? `\`${cell(text)}\`` : '');

function table(headers, rows) {
  if (rows.length === 0) return '';
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map((value) => value || '').join(' | ')} |`),
    '',
  ].join('\n');
}

/**
 * The event's type: the manifest's, or a `{Type}` written at the start of the description
 * (`@event name - {Type} text`, the order the JSDoc headers use).
 */
function eventTypeAndText(event) {
  const match = /^\{([^}]+)\}\s*/.exec(event.description ?? '');
  if (event.type?.text || !match) return [event.type?.text, event.description];
  return [match[1], event.description.slice(match[0].length)];
}

function signature(method) {
  const parameters = (method.parameters ?? [])
    .map(
      (p) =>
        `${p.name}${p.optional || p.default ? '?' : ''}${p.type?.text ? `: ${p.type.text}` : ''}`,
    )
    .join(', ');
  const returns = method.return?.type?.text ? `: ${method.return.type.text}` : '';
  return `${method.static ? 'static ' : ''}${method.name}(${parameters})${returns}`;
}

function renderElement(element) {
  const tag = element.tagName;
  const members = element.members ?? [];
  const fields = members.filter((m) => m.kind === 'field' && isPublic(m));
  const attributes = element.attributes ?? [];
  const attributeOf = new Map(attributes.filter((a) => a.fieldName).map((a) => [a.fieldName, a]));
  const methods = members.filter(
    (m) =>
      m.kind === 'method' &&
      (m.privacy ?? 'public') === 'public' &&
      !m.name.startsWith('#') &&
      !m.name.startsWith('_'),
  );
  const out = [`## \`<${tag}>\``, ''];
  if (element.summary) out.push(cell(element.summary), '');
  if (element.description) out.push(element.description.trim(), '');
  out.push(
    `Class \`${element.name}\`. Registered by \`import 'billing-elements/${tag}'\`, ` +
      "`import 'billing-elements/define'` or the script-tag file.",
    '',
  );

  const withAttribute = fields.filter((f) => attributeOf.has(f.name));
  const attributeRows = [
    ...withAttribute.map((f) => {
      const attribute = attributeOf.get(f.name);
      return [
        code(attribute.name),
        code(f.name),
        code(f.type?.text),
        code(f.default),
        cell(f.description),
      ];
    }),
    // Attributes with no property (rare): listed all the same.
    ...attributes
      .filter((a) => !a.fieldName || !fields.some((f) => f.name === a.fieldName))
      .map((a) => [code(a.name), '', code(a.type?.text), code(a.default), cell(a.description)]),
  ];
  const sections = [
    [
      'Attributes',
      table(['Attribute', 'Property', 'Type', 'Default', 'Description'], attributeRows),
    ],
    [
      'Properties without an attribute',
      table(
        ['Property', 'Type', 'Default', 'Description'],
        fields
          .filter((f) => !attributeOf.has(f.name))
          .map((f) => [
            code(f.name),
            code(f.type?.text),
            code(f.default),
            cell(`${f.readonly ? 'Read-only. ' : ''}${f.description ?? ''}`),
          ]),
      ),
    ],
    [
      'Methods',
      table(
        ['Method', 'Description'],
        methods.map((m) => [code(signature(m)), cell(m.description)]),
      ),
    ],
    [
      'Events',
      table(
        ['Event', 'Type', 'Description'],
        (element.events ?? [])
          .filter((e) => e.name)
          .map((event) => {
            const [type, text] = eventTypeAndText(event);
            return [code(event.name), code(type), cell(text)];
          }),
      ),
    ],
    [
      'Slots',
      table(
        ['Slot', 'Description'],
        (element.slots ?? []).map((s) => [
          s.name ? code(s.name) : '(default)',
          cell(s.description),
        ]),
      ),
    ],
    [
      'CSS parts',
      table(
        ['Part', 'Description'],
        (element.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
      ),
    ],
    [
      'CSS custom properties',
      table(
        ['Property', 'Default', 'Description'],
        (element.cssProperties ?? []).map((p) => [
          code(p.name),
          code(p.default),
          cell(p.description),
        ]),
      ),
    ],
  ];
  for (const [title, body] of sections) {
    if (body) out.push(`### ${title}`, '', body);
  }
  return out.join('\n');
}

/** docs/reference.md for a manifest, formatted the way `npm run format` would leave it. */
export async function renderReference(manifest) {
  const elements = elementsOf(manifest);
  const markdown = [
    "<!-- Generated by `npm run docs` from the custom-elements manifest (the elements' JSDoc and Lit properties). Do not edit: change the source, then run `npm run docs`. -->",
    '',
    '# Element reference',
    '',
    'Attributes, properties, methods, events, slots, parts and CSS custom properties of every element. ' +
      'For guides and examples, see [elements.md](elements.md); for framework typings, [frameworks.md](frameworks.md).',
    '',
    ...elements.map((e) => `- [\`<${e.tagName}>\`](#${e.tagName})`),
    '',
    ...elements.map(renderElement),
  ].join('\n');
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(REFERENCE)) ?? {};
  return prettier.format(markdown, { ...options, filepath: REFERENCE });
}

async function main() {
  const check = process.argv.includes('--check');
  const manifest = await analyze();
  const fresh = await renderReference(manifest);
  const tags = elementsOf(manifest).map((e) => `<${e.tagName}>`);
  if (check) {
    const committed = existsSync(REFERENCE) ? readFileSync(REFERENCE, 'utf8') : '';
    if (committed !== fresh) {
      console.error(
        "docs/reference.md is out of date with the elements' JSDoc: run `npm run docs` and commit it.",
      );
      process.exit(1);
    }
    console.log(`docs/reference.md is up to date (${tags.join(', ')})`);
    return;
  }
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(REFERENCE, fresh);
  await writeManifest(manifest);
  console.log(`wrote docs/reference.md and dist/custom-elements.json (${tags.join(', ')})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}

// The custom-elements manifest (what docs/reference.md, editors and the framework typings read)
// against what each element really declares and renders: its reactive properties and their
// attributes, the parts in its templates (`part="..."`), the slots they hold (`<slot>`), the
// `billing-*` events it dispatches and the `--billing-*` custom properties its styles read. The JSDoc tags the manifest takes
// these from are written by hand: this is what keeps them from drifting.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { analyze, elementsOf } from '../../scripts/docs.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Named {
  name: string;
}
interface ManifestElement {
  tagName: string;
  name: string;
  attributes?: (Named & { fieldName?: string })[];
  members?: (Named & { kind: string; privacy?: string; static?: boolean })[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
}

/**
 * The source files an element's class reaches through relative imports: its folder, the shared
 * element code and the browser runtime, never another element's folder (what opens a portal
 * reaches <billing-portal> at run time, which renders its own parts).
 */
function closure(entry: string): string[] {
  const own = dirname(entry);
  const elements = join(root, 'src', 'elements');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/from\s+'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), spec!.replace(/\.js$/, '.ts'));
      const inElements = target.startsWith(`${elements}/`);
      const allowed = inElements
        ? target.startsWith(`${own}/`) || target.startsWith(join(elements, 'shared'))
        : target.startsWith(join(root, 'src', 'client'));
      if (allowed) visit(target);
    }
  };
  visit(entry);
  return [...seen];
}

/** Every word a `part` attribute of a template can hold: static, or string literals in `${...}`. */
function partsIn(text: string): Set<string> {
  const parts = new Set<string>();
  const add = (words: string) => {
    for (const word of words.split(/\s+/)) if (/^[a-z][a-z-]*$/.test(word)) parts.add(word);
  };
  for (const [, quoted, expression] of text.matchAll(/\spart=(?:"([^"]*)"|\$\{([^}]*)\})/g)) {
    const static_ = (quoted ?? '').replace(/\$\{[^}]*\}/g, ' ');
    add(static_);
    const expressions = quoted
      ? [...quoted.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1]!)
      : [expression ?? ''];
    for (const source of expressions)
      for (const [, literal] of source.matchAll(/'([^']*)'/g)) add(literal!);
  }
  return parts;
}

/** The slots a template holds: `<slot name="x">` gives `x`, a `<slot>` without a name `''`. */
function slotsIn(text: string): Set<string> {
  const slots = new Set<string>();
  for (const [, attributes] of text.matchAll(/<slot(\s[^>]*)?>/g)) {
    const name = /\sname="([^"]*)"/.exec(attributes ?? '')?.[1];
    slots.add(name ?? '');
  }
  return slots;
}

/** Event class name → event type, from src/client/events.ts. */
function eventTypes(): Map<string, string> {
  // The shared events, and those only a decrease loads.
  const text = ['src/client/events.ts', 'src/client/decrease-events.ts']
    .map((path) => readFileSync(join(root, path), 'utf8'))
    .join('\n');
  const types = new Map<string, string>();
  for (const [, name, type] of text.matchAll(
    /class (\w+) extends [^{]+\{\s*static (?:override )?readonly type = '([^']+)'/g,
  ))
    types.set(name!, type!);
  return types;
}

/** The element's reactive properties: name → attribute (null when it has none). */
function reactiveProperties(file: string): Map<string, string | null> {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const properties = new Map<string, string | null>();
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyDeclaration(node) &&
      node.name.getText(source) === 'properties' &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      for (const property of node.initializer.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const name = property.name.getText(source);
        let attribute: string | null = name.toLowerCase();
        if (ts.isObjectLiteralExpression(property.initializer)) {
          for (const option of property.initializer.properties) {
            if (!ts.isPropertyAssignment(option)) continue;
            const key = option.name.getText(source);
            const value = option.initializer.getText(source);
            if (key === 'attribute') attribute = value === 'false' ? null : value.slice(1, -1);
            // Internal state: neither an attribute nor a public property.
            if (key === 'state' && value === 'true') attribute = 'state:internal';
          }
        }
        if (attribute !== 'state:internal') properties.set(name, attribute);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return properties;
}

const names = (list: Named[] | undefined) => new Set((list ?? []).map((item) => item.name));
const sorted = (set: Iterable<string>) => [...set].sort();

describe('the manifest against the elements', () => {
  let elements: ManifestElement[] = [];
  before(async () => {
    elements = elementsOf(await analyze()) as unknown as ManifestElement[];
  });

  it('describes the six elements, each with a theme', () => {
    assert.deepEqual(
      elements.map((element) => element.tagName),
      [
        'billing-history',
        'billing-portal',
        'buy-feature',
        'feature-gate',
        'plan-picker',
        'usage-meter',
      ],
    );
    for (const element of elements) {
      assert.ok(names(element.attributes).has('theme'), `<${element.tagName}> theme attribute`);
      assert.ok(names(element.members).has('theme'), `<${element.tagName}> theme property`);
    }
  });

  for (const tag of [
    'billing-history',
    'billing-portal',
    'buy-feature',
    'feature-gate',
    'plan-picker',
    'usage-meter',
  ]) {
    describe(`<${tag}>`, () => {
      const file = join(root, 'src/elements', tag, `${tag}.ts`);
      const files = closure(file);
      const elementFiles = files.filter((path) => path.includes('/src/elements/'));
      const element = () => elements.find((candidate) => candidate.tagName === tag)!;

      it('documents every reactive property and attribute it declares, and no other', () => {
        const declared = reactiveProperties(file);
        const documented = element();
        const members = names(
          (documented.members ?? []).filter((member) => member.kind === 'field' && !member.static),
        );
        for (const name of declared.keys())
          assert.ok(members.has(name), `property ${name} is in the manifest`);
        const attributes = new Set(
          [...declared.values()].filter((attribute): attribute is string => attribute !== null),
        );
        // Native attributes the element reads (documented by hand) are the only others.
        const native = new Set(['nonce']);
        assert.deepEqual(
          sorted([...names(documented.attributes)].filter((name) => !native.has(name))),
          sorted(attributes),
        );
      });

      it('documents every part its templates render, and no other', () => {
        const rendered = new Set<string>();
        for (const path of elementFiles)
          for (const part of partsIn(readFileSync(path, 'utf8'))) rendered.add(part);
        const documented = names(element().cssParts);
        assert.deepEqual(
          sorted([...documented].filter((name) => !rendered.has(name))),
          [],
          'documented, not rendered',
        );
        assert.deepEqual(
          sorted([...rendered].filter((name) => !documented.has(name))),
          [],
          'rendered, not documented',
        );
      });

      it('documents every slot its templates hold, and no other', () => {
        const held = new Set<string>();
        for (const path of elementFiles)
          for (const slot of slotsIn(readFileSync(path, 'utf8'))) held.add(slot);
        assert.deepEqual(sorted(names(element().slots)), sorted(held));
      });

      it('documents every billing event it dispatches, and dispatches every one it documents', () => {
        const types = eventTypes();
        const constructed = (paths: string[]) =>
          new Set(
            paths.flatMap((path) =>
              [...readFileSync(path, 'utf8').matchAll(/new (Billing\w+Event)\(/g)].map(
                ([, name]) => types.get(name!) ?? `unknown class ${name}`,
              ),
            ),
          );
        const documented = new Set(
          [...names(element().events)].filter((name) => name.startsWith('billing-')),
        );
        const own = constructed(elementFiles);
        for (const type of own) assert.ok(documented.has(type), `${type} is documented`);
        const reachable = constructed(files);
        for (const type of documented) assert.ok(reachable.has(type), `${type} is dispatched`);
      });

      it('documents only --billing-* custom properties its styles read, and all its own', () => {
        // Read by its styles, the shared ones included; its own folder's must all be documented
        // (a shared token an element's rules never reach, say the dialog's backdrop on a
        // dialog-less element, need not be).
        const readIn = (paths: string[]) => {
          const read = new Set<string>();
          for (const path of paths)
            for (const [, name] of readFileSync(path, 'utf8').matchAll(/var\((--billing-[\w-]+)/g))
              read.add(name!);
          return read;
        };
        const read = readIn(elementFiles);
        const own = readIn(elementFiles.filter((path) => path.startsWith(`${dirname(file)}/`)));
        const documented = names(element().cssProperties);
        assert.deepEqual(
          sorted([...documented].filter((name) => !read.has(name))),
          [],
          'documented, not read',
        );
        assert.deepEqual(
          sorted([...own].filter((name) => !documented.has(name))),
          [],
          'read by its own styles, not documented',
        );
      });
    });
  }
});

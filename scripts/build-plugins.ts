// Build-only transforms of our own sources that make the browser bundles smaller without
// changing what they do (vite.config.ts).
import { transform as transformCss } from 'lightningcss';
import { parseAst } from 'vite';
import type { Plugin } from 'vite';

/** One stylesheet minified by lightningcss (the CSS minifier Vite itself uses). */
export function minifyCss(text: string, filename = 'styles.css'): string {
  try {
    return transformCss({ filename, code: Buffer.from(text), minify: true }).code.toString();
  } catch (error) {
    const { message, loc } = error as Error & { loc?: { line: number } };
    throw new Error(`${filename}: css\`…\`, line ${loc?.line ?? '?'} of its text: ${message}`, {
      cause: error,
    });
  }
}

/**
 * Each run of whitespace of an html`…` template's literal text becomes one space: the browser
 * renders the two alike (no template of ours sets `white-space: pre`). The space before a
 * tag's closing `>` goes too (our templates write no `>` in text; `/>` is left as it is).
 */
export function collapseHtmlWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/ >/g, '>');
}

/** A literal text as the source of a template literal: backslash, backtick and `${` escaped. */
const asTemplateSource = (text: string) => text.replace(/\\|`|\$\{/g, (match) => `\\${match}`);

interface TemplateElement {
  start: number;
  end: number;
  value: { raw: string; cooked: string | null };
}
type Node = { type: string; [key: string]: unknown };

/** Calls `visit` on every node of an ESTree syntax tree. */
function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
  } else if (node && typeof node === 'object') {
    if (typeof (node as Node).type === 'string') visit(node as Node);
    for (const value of Object.values(node))
      if (value && typeof value === 'object') walk(value, visit);
  }
}

/**
 * Lit's css`…` templates of a module (JavaScript, as Vite hands it to plugins) minified by
 * lightningcss, and the whitespace of its html`…` templates collapsed. A css`…` template with
 * `${…}` in it is left as it is: its pieces are not stylesheets on their own.
 */
export function minifyLitTemplates(code: string, filename: string): string {
  const edits: { literal: TemplateElement; text: string }[] = [];
  walk(parseAst(code, { lang: 'js' }), (node) => {
    if (node.type !== 'TaggedTemplateExpression') return;
    const tag = (node.tag as Node & { name?: string }).name;
    const { quasis } = node.quasi as { quasis: TemplateElement[] };
    if (tag === 'css' && quasis.length === 1) {
      const [literal] = quasis as [TemplateElement];
      if (literal.value.cooked === null) throw new Error(`${filename}: css\`…\` with a bad escape`);
      edits.push({ literal, text: asTemplateSource(minifyCss(literal.value.cooked, filename)) });
    } else if (tag === 'html') {
      for (const literal of quasis)
        edits.push({ literal, text: collapseHtmlWhitespace(literal.value.raw) });
    }
  });
  // From the end backwards, so the offsets of the edits still to make stay true.
  let out = code;
  for (const { literal, text } of edits.sort((a, b) => b.literal.start - a.literal.start)) {
    const { start, end, value } = literal;
    // A literal's offsets span its text alone (no backtick, no `${`): checked, not assumed.
    if (out.slice(start, end) !== value.raw) throw new Error(`${filename}: template offsets`);
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out;
}

/** minifyLitTemplates on the elements and the browser runtime. */
export function minifyLitTemplatesPlugin(): Plugin {
  return {
    name: 'billing-elements:minify-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/(elements|client)\/.+\.ts$/.test(id) || !/\b(css|html)`/.test(code)) return null;
      return minifyLitTemplates(code, id);
    },
  };
}

/**
 * The all-in-one script-tag file holds every module anyway: there, an `import('./x.js')` of our
 * own code (a meter's rare states, the portal opened by a remedy) becomes a static import, so
 * the bundler does not wrap the modules it reaches in lazy-initialisation functions (what an
 * inlined dynamic import costs: a few hundred bytes). The call still answers a promise of the
 * module's namespace, as the code that awaits it expects.
 */
export function staticImportsPlugin(): Plugin {
  // `import('./x.js')` or `import('../x/y.js')`: a relative path in quotes, nothing else.
  const dynamicImport = () => /\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g;
  return {
    name: 'billing-elements:static-imports',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/(elements|client)\/.+\.ts$/.test(id) || !dynamicImport().test(code)) return null;
      const imports: string[] = [];
      const out = code.replace(dynamicImport(), (_call, _quote: string, path: string) => {
        const name = `__staticModule${imports.length}`;
        imports.push(`import * as ${name} from ${JSON.stringify(path)};`);
        return `Promise.resolve(${name})`;
      });
      return `${imports.join('\n')}\n${out}`;
    },
  };
}

/**
 * The script-tag file carries the English texts alone: there, an element's
 * `import('./messages.fr.js')` becomes `scriptTagTranslation('fr')` from `helper`, which loads
 * the file of every element's French texts built beside the script-tag file
 * (billing-elements.fr.js, mode `script-tag-texts`). Runs before staticImportsPlugin, which
 * would otherwise bundle them.
 */
export function translationsBesidePlugin(helper: string): Plugin {
  // `import('./messages.fr.js')`: a relative path to a module named for a language.
  const translationImport = () => /\bimport\((['"])\.{1,2}\/[^'"]+\.([a-z]{2})\.js\1\)/g;
  return {
    name: 'billing-elements:translations-beside',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/(elements|client)\/.+\.ts$/.test(id) || !translationImport().test(code))
        return null;
      const out = code.replace(
        translationImport(),
        (_call, _quote: string, language: string) =>
          `scriptTagTranslation(${JSON.stringify(language)})`,
      );
      return `import { scriptTagTranslation } from ${JSON.stringify(helper)};\n${out}`;
    },
  };
}

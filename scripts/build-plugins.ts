// Build-only transforms of our own sources that make the browser bundles smaller without
// changing what they do (vite.config.ts). Both work on text, on a narrow set of files, and a
// pattern they miss only costs bytes.
import type { Plugin } from 'vite';

/**
 * Marks the contract's schema constructions as pure. Browser code imports a few constants
 * from src/contract (UNLIMITED_QUANTITY, PORTAL_PAGES...) and no schema, but a bundler must
 * keep every top-level `z.object(...)` of those modules (it cannot know zod's factories have
 * no side effect), and with them most of zod: about 6 kB gzip of the script-tag file.
 * Annotated, unused schemas are dropped; used ones stay, so nothing changes for Node code.
 */
export function pureContractSchemas(): Plugin {
  return {
    name: 'billing-elements:pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      return /\/src\/contract\/[^/]+\.ts$/.test(id) ? annotatePureSchemas(code) : null;
    },
  };
}

/** The `@__PURE__` annotations of pureContractSchemas, on one module's source. */
export function annotatePureSchemas(code: string): string {
  return (
    code
      // `export const XSchema = factory(...)` or `= z` followed by a chain on the next lines.
      .replace(/^(export const [\w$]+ = )(?=[A-Za-z_$][\w$.]*\s*\(|z\s*\n)/gm, '$1/* @__PURE__ */ ')
      // Every zod factory call (`z.int()` as an argument); `z.config()` does have an effect.
      .replace(/(?<![\w$.])z\.(?!config\b)([\w$]+)\(/g, '/* @__PURE__ */ z.$1(')
  );
}

/** Applies `minify` to the literal text of each css`…` template, leaving `${…}` untouched. */
export function mapTaggedTemplates(code: string, tag: string, minify: (text: string) => string) {
  const opening = new RegExp(`(?<![\\w$.])${tag}\``, 'g');
  let out = '';
  let copied = 0;
  for (let match = opening.exec(code); match; match = opening.exec(code)) {
    let at = match.index + match[0].length;
    out += code.slice(copied, at);
    let text = '';
    while (at < code.length) {
      const char = code[at];
      if (char === '\\') {
        text += code.slice(at, at + 2);
        at += 2;
      } else if (char === '`') {
        out += `${minify(text)}\``;
        at += 1;
        break;
      } else if (char === '$' && code[at + 1] === '{') {
        out += minify(text);
        text = '';
        let depth = 0;
        let end = at + 1;
        for (; end < code.length; end += 1) {
          if (code[end] === '{') depth += 1;
          else if (code[end] === '}' && --depth === 0) break;
        }
        // Templates nested in the expression (html`…` inside `${…}`) are minified too.
        out += `\${${mapTaggedTemplates(code.slice(at + 2, end), tag, minify)}}`;
        at = end + 1;
      } else {
        text += char;
        at += 1;
      }
    }
    copied = at;
    opening.lastIndex = at;
  }
  return out + code.slice(copied);
}

/**
 * Comments out, then whitespace collapsed: none around `{ } ; ,`, after a colon, around `*`
 * after a `)` (calc), around `/` (unless a `*` follows), inside parentheses, before
 * `!important`, around the `>` and `~` combinators (never `+`: calc needs its spaces), after
 * `@media`; in a declaration's value, none after a `)` unless a `+` or `-` follows (calc again).
 * No `;` before `}`, no zero before a decimal point, no quotes around an attribute selector's
 * identifier value; other quoted strings kept as they are.
 */
export function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')/)
    .map((part, index, parts) =>
      index % 2 === 1
        ? // An attribute selector's value that is an identifier needs no quotes: [a='b'] → [a=b].
          /=\s*$/.test(parts[index - 1] ?? '') &&
          /^\s*\]/.test(parts[index + 1] ?? '') &&
          /^(['"])-?[_a-zA-Z][\w-]*\1$/.test(part)
          ? part.slice(1, -1)
          : part
        : part
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};,])\s*/g, '$1')
            .replace(/: /g, ':')
            .replace(/\) \* /g, ')*')
            .replace(/([\s:(,])0\.(?=\d)/g, '$1.')
            .replace(/;}/g, '}')
            .replace(/\( /g, '(')
            .replace(/ \)/g, ')')
            .replace(/ !important/g, '!important')
            .replace(/ ?([>~]) ?| ?(\/) ?(?!\*)/g, '$1$2')
            .replace(/@media \(/g, '@media(')
            .replace(
              /([{;][\w-]+:)([^;{}]*)(?=[;}])/g,
              (_, name: string, value: string) => name + value.replace(/\) (?![-+])/g, ')'),
            ),
    )
    .join('');
}

/**
 * Collapses each run of whitespace of an html`…` template's literal text into one space: the
 * browser renders the two alike (no template of ours sets `white-space: pre`), and the
 * indentation of our sources no longer ships in every template. The space before a tag's
 * closing `>` goes too (our templates write no `>` in text; `/>` is left as it is).
 */
export function minifyHtml(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/ >/g, '>');
}

/**
 * Minifies the CSS of Lit's css`…` templates and the whitespace of its html`…` templates, in
 * the elements and the browser runtime.
 */
export function minifyLitCss(): Plugin {
  return {
    name: 'billing-elements:minify-lit-css',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/(elements|client)\/.+\.ts$/.test(id)) return null;
      const hasCss = code.includes('css`');
      const hasHtml = code.includes('html`');
      if (!hasCss && !hasHtml) return null;
      const css = hasCss ? mapTaggedTemplates(code, 'css', minifyCss) : code;
      return hasHtml ? mapTaggedTemplates(css, 'html', minifyHtml) : css;
    },
  };
}

// The build's own transforms of our sources (scripts/build-plugins.ts): they may only remove
// bytes, never change what the CSS or the contract's values mean.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  annotatePureSchemas,
  mapTaggedTemplates,
  minifyCss,
  minifyHtml,
} from '../../scripts/build-plugins.js';

describe('minifyCss', () => {
  it('drops comments and the whitespace around braces, semicolons and commas', () => {
    const css = `
      /* Tokens, read once. */
      :host {
        --_accent: var(--billing-accent, #4f46e5);
        display: block;
      }
      @media (prefers-color-scheme: dark) {
        :host([level='critical']) .bar > span,
        .a .b { color: color-mix(in srgb, currentColor 68%, transparent); }
      }
    `;
    assert.equal(
      minifyCss(css),
      // A leading space stays: the text may follow a `${…}`.
      ' :host{--_accent:var(--billing-accent,#4f46e5);display:block}@media(prefers-color-scheme:dark){:host([level=critical]) .bar>span,.a .b{color:color-mix(in srgb,currentColor 68%,transparent)}}',
    );
  });

  it('keeps quoted strings as they are', () => {
    assert.equal(
      minifyCss(`a::before { content: '  x ,  y  ; { }'; }`),
      `a::before{content:'  x ,  y  ; { }'}`,
    );
    assert.equal(
      minifyCss(`a { font-family: "My  Font", serif; }`),
      `a{font-family:"My  Font",serif}`,
    );
  });

  it('keeps the spaces that separate selectors and values', () => {
    assert.equal(minifyCss('.a   .b   { margin: 0   auto }'), '.a .b{margin:0 auto}');
  });

  it('tightens calc() and decimals, never a descendant `*`', () => {
    assert.equal(
      minifyCss('.a * .b { gap: calc(var(--s) * 1.5) calc(var(--r) / 2); opacity: 0.5; }'),
      '.a * .b{gap:calc(var(--s)*1.5)calc(var(--r)/2);opacity:.5}',
    );
  });

  it('keeps the spaces calc() needs around + and -, and descendant combinators after a )', () => {
    assert.equal(
      minifyCss(
        ':not(.a) .b > .c ~ .d + .e { margin: calc(var(--s) - 1px) calc(var(--s) + 1px) -2px; }',
      ),
      ':not(.a) .b>.c~.d + .e{margin:calc(var(--s) - 1px)calc(var(--s) + 1px) -2px}',
    );
  });

  it('tightens parentheses, !important and @media, never inside strings', () => {
    assert.equal(
      minifyCss(
        "@media (width > 30em) { a { color: var( --c, rgb(0 0 0 / 0.5) ) !important; content: 'x ) y'; } }",
      ),
      "@media(width>30em){a{color:var(--c,rgb(0 0 0/.5))!important;content:'x ) y'}}",
    );
  });

  it("unquotes an attribute selector's identifier value, only that", () => {
    assert.equal(
      minifyCss(
        `[a='true'], [b="x-1"], [c='1'], [d='--x'], [e='a b'], [f='g' i] { content: '='; }`,
      ),
      `[a=true],[b=x-1],[c='1'],[d='--x'],[e='a b'],[f='g' i]{content:'='}`,
    );
  });
});

describe('mapTaggedTemplates', () => {
  it('changes the literal text of css`` templates only, not their expressions or other templates', () => {
    const source = [
      'const styles = css`  a  {  color: ${unsafeCSS(`x   y`)};  }  `;',
      'const view = html`<p>  keep  </p>`;',
      'const other = notcss`  a  {  }  `;',
    ].join('\n');
    assert.equal(
      mapTaggedTemplates(source, 'css', minifyCss),
      [
        'const styles = css` a{color:${unsafeCSS(`x   y`)}}`;',
        'const view = html`<p>  keep  </p>`;',
        'const other = notcss`  a  {  }  `;',
      ].join('\n'),
    );
  });

  it('keeps escapes and braces inside expressions, and minifies the templates nested there', () => {
    const source = 'css`a::after { content: "\\`"; } ${cond ? css`b { }` : { x: 1 }} c { }`';
    assert.equal(
      mapTaggedTemplates(source, 'css', minifyCss),
      'css`a::after{content:"\\`"}${cond ? css`b{}` : { x: 1 }} c{}`',
    );
  });
});

describe('minifyHtml', () => {
  it('collapses each run of whitespace into one space, in text and between attributes', () => {
    const source = [
      'html`<div\n    class="a"\n    part="b  c">\n  ${x ? html`<p>\n    one   two\n  </p>` : nothing}\n</div>`',
    ].join('');
    assert.equal(
      mapTaggedTemplates(source, 'html', minifyHtml),
      'html`<div class="a" part="b c"> ${x ? html`<p> one two </p>` : nothing} </div>`',
    );
  });

  it('drops the space before the end of a tag, after a binding too, and keeps " />"', () => {
    const source = 'html`<p\n  class="a"\n  title=${t}\n>one</p\n><input .value=${v} />`';
    assert.equal(
      mapTaggedTemplates(source, 'html', minifyHtml),
      'html`<p class="a" title=${t}>one</p><input .value=${v} />`',
    );
  });
});

describe('annotatePureSchemas', () => {
  it('marks schema constructions and zod factory calls as pure, nothing else', () => {
    const source = [
      'export const UNLIMITED_QUANTITY = -1;',
      'export const PATTERN = /^a$/;',
      'export const NameSchema = z',
      '  .string()',
      '  .check(z.regex(PATTERN));',
      'export const StateSchema = openEnum(STATES);',
      'z.config(z.locales.en());',
      'const local = z.int();',
    ].join('\n');
    assert.equal(
      annotatePureSchemas(source),
      [
        'export const UNLIMITED_QUANTITY = -1;',
        'export const PATTERN = /^a$/;',
        'export const NameSchema = /* @__PURE__ */ z',
        '  .string()',
        '  .check(/* @__PURE__ */ z.regex(PATTERN));',
        'export const StateSchema = /* @__PURE__ */ openEnum(STATES);',
        'z.config(z.locales.en());',
        'const local = /* @__PURE__ */ z.int();',
      ].join('\n'),
    );
  });
});

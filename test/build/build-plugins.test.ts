// The build's own transforms of our sources (scripts/build-plugins.ts): they may only remove
// bytes, never change what the CSS, the templates or the contract's values mean.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  minifyLitTemplates,
  staticImportsPlugin,
  translationsBesidePlugin,
} from '../../scripts/build-plugins.js';

const minify = (source: string) => minifyLitTemplates(source, 'module.js');

describe('minifyLitTemplates: css', () => {
  it("minifies a css`` template's stylesheet with lightningcss", () => {
    const source = [
      '// Non-ASCII text before the template: offsets are counted in characters → still true.',
      'const styles = css`',
      '  /* Tokens, read once. */',
      '  :host {',
      '    --_accent: var(--billing-accent, #4f46e5);',
      '    display: block;',
      '  }',
      "  :host([level='critical']) .bar > span { opacity: 0.5; }",
      '`;',
    ].join('\n');
    assert.equal(
      minify(source),
      [
        '// Non-ASCII text before the template: offsets are counted in characters → still true.',
        'const styles = css`:host{--_accent:var(--billing-accent,#4f46e5);display:block}:host([level=critical]) .bar>span{opacity:.5}`;',
      ].join('\n'),
    );
  });

  it('keeps the escapes a template literal needs around the minified text', () => {
    // In the source, `\\:` and `\``; in the stylesheet, `\:` and a backtick: escaped again.
    const source = "css`.sm\\\\:hidden::before { content: '\\`'; }`";
    assert.equal(minify(source), 'css`.sm\\\\:hidden:before{content:"\\`"}`');
  });

  it('leaves a css`` template with `${}` as it is, and other tags', () => {
    const source = 'const a = css`  a { color: ${color}; }  `; const b = notcss`  a  {  }  `;';
    assert.equal(minify(source), source);
  });

  it('fails on CSS that lightningcss cannot parse, naming the module', () => {
    assert.throws(
      () => minify('css`\\n  a { color: red; }\\n  b { color: red; } }`'),
      /^Error: module\.js: css`…`, line 3 of its text: /,
    );
  });
});

describe('minifyLitTemplates: html', () => {
  it('collapses each run of whitespace into one space, in text and between attributes', () => {
    const source = [
      'html`<div\n    class="a"\n    part="b  c">\n  ${x ? html`<p>\n    one   two\n  </p>` : nothing}\n</div>`',
    ].join('');
    assert.equal(
      minify(source),
      'html`<div class="a" part="b c"> ${x ? html`<p> one two </p>` : nothing} </div>`',
    );
  });

  it('drops the space before the end of a tag, after a binding too, and keeps " />"', () => {
    const source = 'html`<p\n  class="a"\n  title=${t}\n>one</p\n><input .value=${v} />`';
    assert.equal(minify(source), 'html`<p class="a" title=${t}>one</p><input .value=${v} />`');
  });
});

describe('staticImportsPlugin (the script-tag file)', () => {
  const transform = (code: string, id = '/repo/src/elements/x/x.ts') => {
    const hook = staticImportsPlugin().transform as (code: string, id: string) => string | null;
    return hook(code, id);
  };

  it("turns each relative import() of our code into a promise of a static import's namespace", () => {
    const out = transform(
      'const a = () => import(\'./notices.js\');\nconst b = await import("../portal/open.js");',
    );
    assert.equal(
      out,
      [
        'import * as __staticModule0 from "./notices.js";',
        'import * as __staticModule1 from "../portal/open.js";',
        'const a = () => Promise.resolve(__staticModule0);',
        'const b = await Promise.resolve(__staticModule1);',
      ].join('\n'),
    );
  });

  it('leaves bare imports, computed ones and other folders as they are', () => {
    assert.equal(transform("import('lit');\nimport(name);"), null);
    assert.equal(transform("import('./x.js');", '/repo/src/sandbox/x.ts'), null);
  });
});

describe('translationsBesidePlugin (the script-tag file)', () => {
  const transform = (code: string, id = '/repo/src/elements/x/x.ts') => {
    const hook = translationsBesidePlugin('/repo/src/beside.ts').transform as (
      code: string,
      id: string,
    ) => string | null;
    return hook(code, id);
  };

  it("turns a text table's import() in another language into a load of the file beside", () => {
    const out = transform("registerTexts(texts, { fr: () => import('./messages.fr.js') });");
    assert.equal(
      out,
      [
        'import { scriptTagTranslation } from "/repo/src/beside.ts";',
        'registerTexts(texts, { fr: () => scriptTagTranslation("fr") });',
      ].join('\n'),
    );
  });

  it('leaves the other imports to staticImportsPlugin, and other folders as they are', () => {
    assert.equal(transform("import('./notices.js');"), null);
    assert.equal(transform("import('./messages.fr.js');", '/repo/src/sandbox/x.ts'), null);
  });
});

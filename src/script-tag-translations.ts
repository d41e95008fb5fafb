// How the script-tag file finds its other languages. It carries the English texts alone; each
// other language's texts, every element's in one file, are built beside it
// (billing-elements.fr.js) and loaded from there when a page first shows that language. The
// build (vite.config.ts, mode `script-tag`) turns each element's `import('./messages.fr.js')`
// into a call of `scriptTagTranslation('fr')`.
import type { OtherLanguage, TextTable } from './client/i18n.js';

/**
 * The script-tag file's own address, read while it runs: `document.currentScript` is set only
 * then. Empty for an inline copy of the file, whose languages are looked for beside the page.
 */
const scriptUrl =
  typeof document === 'undefined'
    ? ''
    : ((document.currentScript as HTMLScriptElement | null)?.src ?? '');

/** The texts of a language, from the file beside the script-tag file. */
export function scriptTagTranslation(
  language: OtherLanguage,
): Promise<{ readonly default: TextTable }> {
  const url = new URL(`billing-elements.${language}.js`, scriptUrl || document.baseURI);
  return import(/* @vite-ignore */ url.href) as Promise<{ readonly default: TextTable }>;
}

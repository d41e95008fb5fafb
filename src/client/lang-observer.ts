// One MutationObserver for the whole page tells everyone who follows the page's language (each
// connected element, the usage store) that a `lang` attribute changed, as
// @shoelace-style/localize does. It watches the document's whole tree rather than `<html>`
// alone: a host app may switch the language of one region (`<div lang="fr">`), and the
// elements inside follow it. It observes while someone listens, and not at all on a server.

type LangListener = () => void;

const listeners = new Set<LangListener>();
let observer: MutationObserver | undefined;

/**
 * Calls `listener` after any `lang` attribute of the document changes; returns the function
 * that stops it. Does nothing where there is no DOM (server rendering).
 */
export function watchLang(listener: LangListener): () => void {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return () => {};
  listeners.add(listener);
  if (!observer) {
    observer = new MutationObserver(() => {
      for (const each of [...listeners]) each();
    });
    observer.observe(document.documentElement, { attributeFilter: ['lang'], subtree: true });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      observer?.disconnect();
      observer = undefined;
    }
  };
}

/**
 * The page's own `lang` (`<html lang>`): the language the usage store asks the service's texts
 * in. Empty where the page names none, and where there is no document (server rendering).
 */
export function pageLang(): string {
  return typeof document === 'undefined' ? '' : document.documentElement.lang;
}

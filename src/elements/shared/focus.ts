// Where the focus goes back when something an element opened (a modal portal) closes.

const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * `opener` and the elements whose shadow roots hold it, innermost first: taken when something
 * opens, because the opener may be gone when it closes (a remedy button leaves with the refusal
 * its workflow fixed) and a detached node no longer knows its host.
 */
export function focusReturnPath(opener: Element | null): Element[] {
  const path: Element[] = [];
  for (let node = opener; node;) {
    path.push(node);
    const root = node.getRootNode();
    node = root instanceof ShadowRoot ? root.host : null;
  }
  return path;
}

/**
 * Gives the focus back to the first element of `path` still in the page: to it, or when it
 * cannot take the focus itself (a custom element), to its first control. An element holds the
 * focus when it matches `:focus-within`, which counts its shadow tree.
 */
export function returnFocus(path: readonly Element[]): void {
  for (const element of path) {
    if (!element.isConnected) continue;
    (element as Partial<HTMLOrSVGElement>).focus?.();
    if (!element.matches(':focus-within'))
      element.shadowRoot?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    if (element.matches(':focus-within')) return;
  }
}

// Where the focus goes back when something an element opened (a modal portal) closes.

const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

/** The element that has the focus, inside shadow roots. */
function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether the focus is on `element` or inside it (its light or shadow tree). */
function holdsFocus(element: Element): boolean {
  const active = deepActiveElement();
  if (!active) return false;
  for (let node: Node | null = active; node;) {
    if (node === element) return true;
    const parent: Node | null = node.parentNode;
    node = parent instanceof ShadowRoot ? parent.host : parent;
  }
  return false;
}

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
 * cannot take the focus itself (a custom element), to its first control.
 */
export function returnFocus(path: readonly Element[]): void {
  for (const element of path) {
    if (!element.isConnected) continue;
    (element as Partial<HTMLOrSVGElement>).focus?.();
    if (holdsFocus(element)) return;
    const inner = element.shadowRoot?.querySelector<HTMLElement>(FOCUSABLE);
    inner?.focus();
    if (holdsFocus(element)) return;
  }
}

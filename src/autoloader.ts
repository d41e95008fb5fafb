// The autoloader (dist/cdn/autoloader.js), for pages without a build step that show only some of
// the elements: one `<script type="module">` for any page, and each element's code is loaded
// the first time its tag appears in the document, then the tag upgrades in place. What the
// elements share (Lit, the client) is one chunk, loaded once. As Shoelace's autoloader does, it
// looks at the page once at start, then watches the document for tags added later.
//
// Tags inside the shadow root of another component of the host app are not seen (a
// MutationObserver of the document does not reach them): import the element's own module,
// dist/cdn/<tag>.js, for those.

/** Each element's module, by tag: the import() makes the bundler emit it beside this file. */
const ELEMENT_MODULES: Record<string, () => Promise<unknown>> = {
  'usage-meter': () => import('./elements/usage-meter/define.js'),
  'buy-feature': () => import('./elements/buy-feature/define.js'),
  'billing-portal': () => import('./elements/billing-portal/define.js'),
  'plan-picker': () => import('./elements/plan-picker/define.js'),
  'feature-gate': () => import('./elements/feature-gate/define.js'),
  'billing-history': () => import('./elements/billing-history/define.js'),
};

/** Tags whose module was asked for already (import() would not load it twice; this skips it). */
const requested = new Set<string>();

function load(tag: string): void {
  if (requested.has(tag) || customElements.get(tag)) return;
  requested.add(tag);
  ELEMENT_MODULES[tag]!().catch((error: unknown) => {
    // Asked again the next time the tag appears (a network failure may pass).
    requested.delete(tag);
    console.error(`[billing-elements] <${tag}> could not be loaded:`, error);
  });
}

/** Loads the modules of the elements in `root` (itself included) that are not defined yet. */
function discover(root: Element | Document): void {
  if (root instanceof Element && root.localName in ELEMENT_MODULES) load(root.localName);
  for (const element of root.querySelectorAll(':not(:defined)'))
    if (element.localName in ELEMENT_MODULES) load(element.localName);
}

discover(document);
new MutationObserver((mutations) => {
  for (const { addedNodes } of mutations)
    for (const node of addedNodes) if (node instanceof Element) discover(node);
}).observe(document.documentElement, { childList: true, subtree: true });

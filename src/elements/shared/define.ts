/**
 * Registers `constructor` as `tag` unless the tag is already taken, so that loading a bundle
 * twice, or the script-tag file next to the npm build, never throws. The same class is a
 * silent no-op; another class (another copy of the library) keeps the tag, with a warning
 * that names it, since both copies implement the same element.
 */
export function defineElement(
  tag: string,
  constructor: CustomElementConstructor,
  registry: CustomElementRegistry = customElements,
): void {
  const existing = registry.get(tag);
  if (existing === constructor) return;
  if (existing) {
    console.warn(
      `[billing-elements] <${tag}> is already defined by another copy; keeping that one.`,
    );
    return;
  }
  registry.define(tag, constructor);
}

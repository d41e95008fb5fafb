/**
 * Registers `constructor` as `tag` unless the same class already holds it, so loading a
 * bundle twice does not throw. A different class under the same tag is a real conflict
 * and throws, as customElements.define would.
 */
export function defineElement(
  tag: string,
  constructor: CustomElementConstructor,
  registry: CustomElementRegistry = customElements,
): void {
  const existing = registry.get(tag);
  if (existing === constructor) return;
  if (existing) {
    throw new DOMException(`<${tag}> is already defined by another class.`, 'NotSupportedError');
  }
  registry.define(tag, constructor);
}

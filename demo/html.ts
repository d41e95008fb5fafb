// Tiny server-side templating for the demo pages: escaped values and `{{name}}` slots.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A piece of markup that `fill` inserts as is. */
export class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export function raw(html: string): Markup {
  return new Markup(html);
}

/** Replaces each `{{name}}` of `template`: strings escaped, Markup as is. Unknown names throw. */
export function fill(template: string, values: Record<string, string | Markup>): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Template slot {{${name}}} has no value`);
    return value instanceof Markup ? value.html : escapeHtml(value);
  });
}

/**
 * Splits a message template ('{used} of {total}') into its text and the values given for its
 * placeholders, so a translation can place styled figures anywhere in the sentence. Text
 * stays text: Lit renders strings as text nodes, never as markup.
 */
export function fillTemplate<T>(template: string, values: Record<string, T>): (string | T)[] {
  const pieces: (string | T)[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    const name = match[1] ?? '';
    if (!Object.hasOwn(values, name)) continue;
    if (match.index > last) pieces.push(template.slice(last, match.index));
    pieces.push(values[name] as T);
    last = match.index + match[0].length;
  }
  if (last < template.length) pieces.push(template.slice(last));
  return pieces;
}

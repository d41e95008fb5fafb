/**
 * Splits a message template ('{used} of {total}') into its text and the values given for its
 * placeholders, so a translation can place styled figures anywhere in the sentence. Text
 * stays text (Lit renders strings as text nodes, never as markup), a placeholder without a
 * value included, and empty text is left out. The values' names are words (`\w+`).
 */
export function fillTemplate<T>(template: string, values: Record<string, T>): (string | T)[] {
  // A capturing group makes split() keep each placeholder's name, at the odd indexes.
  return template
    .split(new RegExp(`\\{(${Object.keys(values).join('|')})\\}`))
    .map((piece, index) => (index % 2 === 1 ? (values[piece] as T) : piece))
    .filter((piece) => piece !== '');
}

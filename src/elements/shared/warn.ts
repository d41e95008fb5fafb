/** The console lines already written on this page. */
const written = new Set<string>();

/**
 * Writes `line` to the console once per page: a setup mistake an element meets again (on each
 * price, each language change) is told once, not on every render. The line names the element
 * and its attribute, so that two different mistakes are two lines.
 */
export function warnOnce(line: string | undefined): void {
  if (!line || written.has(line)) return;
  written.add(line);
  console.warn(line);
}

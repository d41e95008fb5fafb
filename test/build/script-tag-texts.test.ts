import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

// The script-tag file finds every element's French texts in one file beside it, built from
// src/script-tag.fr.ts: a table left out of it would leave that element in English on a French
// page of the script-tag file alone.

const root = new URL('../../', import.meta.url);

/** The French tables of the sources: the shared one and each element's. */
function frenchTables(): string[] {
  const elements = readdirSync(new URL('src/elements/', root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(new URL(`src/elements/${entry.name}/`, root))
        .filter((name) => name.endsWith('.fr.ts'))
        .map((name) => `./elements/${entry.name}/${name.replace(/\.ts$/, '.js')}`),
    );
  return ['./client/shared-texts.fr.js', ...elements].sort();
}

describe("the script-tag file's French texts", () => {
  it('gathers every French table of the elements', () => {
    const source = readFileSync(new URL('src/script-tag.fr.ts', root), 'utf8');
    const imported = [...source.matchAll(/^import \w+ from '([^']+)';$/gm)].map(
      (match) => match[1],
    );
    const spread = [...source.matchAll(/\.\.\.(\w+)/g)].length;
    assert.ok(frenchTables().length >= 6, 'the shared table and the five elements');
    assert.deepEqual([...imported].sort(), frenchTables());
    assert.equal(spread, imported.length, 'each imported table is in the default export');
  });
});

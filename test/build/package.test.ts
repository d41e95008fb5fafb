// What the package ships, as `npm pack` lists it (no install): the files its docs link to, its
// license, what it makes every app install, declarations a browser-only app can read without the
// server's dependencies, and a manifest that names shipped files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, posix } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackageJson {
  license?: string;
  repository?: { type: string; url: string } | string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  customElements?: string;
  exports: Record<string, string | Record<string, string>>;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
let shipped = new Set<string>();

/** Relative links of a Markdown text (inline links and images), without their #fragment. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  // Code is not prose: a `[x](y)` inside a code span or block is not a link.
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  for (const [, target] of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
    links.push(target!.split('#')[0]!);
  }
  return links;
}

/** The declaration files an entry's declarations reach, and the bare modules they import. */
function declarationClosure(entries: string[]): { files: Set<string>; bare: Map<string, string> } {
  const files = new Set<string>();
  const bare = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    // Imports only: a doc comment's example (`import('./texts.fr.js')`) is not one.
    const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, spec] of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)) {
      if (spec!.startsWith('.')) {
        visit(posix.normalize(posix.join(posix.dirname(file), spec!.replace(/\.js$/, '.d.ts'))));
      } else if (!bare.has(spec!)) bare.set(spec!, file);
    }
  };
  for (const entry of entries) visit(entry);
  return { files, bare };
}

describe('the packed package', { timeout: 180_000 }, () => {
  before(async () => {
    await run(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet', '--if-needed'], {
      cwd: root,
      timeout: 170_000,
    });
    const { stdout } = await run(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      timeout: 60_000,
    });
    const [result] = JSON.parse(stdout) as { files: { path: string }[] }[];
    shipped = new Set(result!.files.map((file) => file.path));
  });

  it('ships every file its docs link to', () => {
    const documents = [...shipped].filter((path) => path.endsWith('.md'));
    assert.ok(documents.includes('README.md') && documents.includes('docs/elements.md'));
    const broken: string[] = [];
    for (const document of documents) {
      for (const link of relativeLinks(readFileSync(join(root, document), 'utf8'))) {
        if (link === '') continue;
        const target = normalize(join(dirname(document), decodeURIComponent(link))).replaceAll(
          '\\',
          '/',
        );
        const isFolder = [...shipped].some((path) => path.startsWith(`${target}/`));
        if (!shipped.has(target) && !isFolder) broken.push(`${document} → ${link}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('ships a license and says where it comes from', () => {
    assert.ok(shipped.has('LICENSE'));
    assert.equal(pkg.license, 'MIT');
    assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License/);
    const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    assert.match(repository ?? '', /^(git\+)?https:\/\/|^github:/);
  });

  it('makes a browser-only app install Lit (a range) and nothing of the server', () => {
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), ['lit']);
    assert.match(pkg.dependencies!.lit!, /^\^3\./, 'a caret range: the app keeps one copy of Lit');
    // zod, the one peer, optional: a server app installs it (the Node adapters need nothing).
    assert.deepEqual(Object.keys(pkg.peerDependencies ?? {}), ['zod']);
    assert.ok(pkg.peerDependencies?.zod?.startsWith('^'), 'zod is a peer, as a range');
    assert.equal(pkg.peerDependenciesMeta?.zod?.optional, true, 'zod is optional');
    // The browser build imports Lit and nothing else (zod's schemas stay on the server).
    const browserFiles = [...shipped].filter((path) =>
      /^dist\/(index|define|billing-elements)\.js$|^dist\/(chunks|elements|cdn)\/.*\.js$/.test(
        path,
      ),
    );
    const bare = new Set<string>();
    for (const file of browserFiles) {
      const code = readFileSync(join(root, file), 'utf8');
      for (const [, spec] of code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"'./][^"']*)["']/g))
        bare.add(spec!);
    }
    assert.deepEqual(
      [...bare].filter((spec) => !/^lit(\/|$)/.test(spec)),
      [],
    );
  });

  it('has browser declarations that need Lit only (no zod), server ones that need the peers', () => {
    const browser = declarationClosure([
      'dist/types/index.d.ts',
      'dist/types/define.d.ts',
      ...[...shipped].filter((path) => /^dist\/types\/elements\/[^/]+\/define\.d\.ts$/.test(path)),
      'dist/types/jsx/tags.d.ts',
    ]);
    for (const file of browser.files) assert.ok(shipped.has(file), `${file} ships`);
    assert.deepEqual(
      [...browser.bare].filter(([spec]) => !/^lit(\/|$)/.test(spec)),
      [],
      'bare imports of the browser declarations, with the file that has each',
    );
    const server = declarationClosure(['dist/types/server/index.d.ts']);
    const allowed = /^(lit|zod|node:.*)$/;
    assert.deepEqual(
      [...server.bare.keys()].filter((spec) => !allowed.test(spec)),
      [],
    );
  });

  it('declares the contract types without zod, as the sources define them with it', () => {
    // Both ways assignable, name by name: the rewritten declarations say what the schemas infer.
    const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'contract-types-'));
    try {
      const lines = [
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'const same = <T extends true>(): T | undefined => undefined;',
      ];
      let compared = 0;
      const rel = (path: string) =>
        `./${posix.relative(dir.replaceAll('\\', '/'), join(root, path).replaceAll('\\', '/'))}`;
      for (const file of [...shipped].filter((path) => path.startsWith('dist/types/contract/'))) {
        const text = readFileSync(join(root, file), 'utf8');
        assert.doesNotMatch(text, /zod/, file);
        const module = file.slice('dist/types/contract/'.length, -'.d.ts'.length);
        const alias = module.replace(/\W/g, '_');
        lines.unshift(
          `import type * as S_${alias} from '${rel(`src/contract/${module}.js`)}';`,
          `import type * as D_${alias} from '${rel(file.replace(/\.d\.ts$/, '.js'))}';`,
        );
        // Generic aliases (OpenEnum<T>) are compared through the types that use them.
        for (const [, name] of text.matchAll(/^export type (\w+) =/gm)) {
          lines.push(`same<Same<S_${alias}.${name}, D_${alias}.${name}>>();`);
          compared += 1;
        }
      }
      assert.ok(compared > 40, `${compared} contract types compared`);
      const check = join(dir, 'check.ts');
      writeFileSync(check, lines.join('\n'));
      const program = ts.createProgram([check], {
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: true,
        allowImportingTsExtensions: false,
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((diagnostic) => diagnostic.file?.fileName === check)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      assert.deepEqual(errors, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('types window.BillingElements for a page that loads the script-tag file', () => {
    const exported = pkg.exports['./billing-elements.js'] as Record<string, string>;
    const types = exported.types!.replace(/^\.\//, '');
    assert.ok(shipped.has(types), `${types} ships`);
    const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'script-tag-types-'));
    try {
      const check = join(dir, 'page.ts');
      const rel = `./${posix.relative(dir.replaceAll('\\', '/'), join(root, types).replaceAll('\\', '/'))}`;
      writeFileSync(
        check,
        [
          `import type {} from '${rel.replace(/\.d\.ts$/, '.js')}';`,
          "BillingElements.configureBilling({ endpoint: '/billing' });",
          "const store = window.BillingElements.getUsageStore('/billing');",
          'void store;',
          "customElements.define('x-meter', class extends BillingElements.UsageMeter {});",
          '// @ts-expect-error not part of the script-tag API',
          'BillingElements.embedPortal;',
        ].join('\n'),
      );
      const program = ts.createProgram([check], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        skipLibCheck: true,
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((diagnostic) => diagnostic.file?.fileName === check)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      assert.deepEqual(errors, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a manifest that names the shipped files, not the sources', () => {
    assert.ok(pkg.customElements && shipped.has(pkg.customElements.replace(/^\.\//, '')));
    const manifest = JSON.parse(readFileSync(join(root, pkg.customElements!), 'utf8')) as {
      modules: {
        path: string;
        exports?: { declaration?: { module?: string } }[];
      }[];
    };
    const paths = manifest.modules.flatMap((module) => [
      module.path,
      ...(module.exports ?? []).flatMap((entry) =>
        entry.declaration?.module ? [entry.declaration.module] : [],
      ),
    ]);
    assert.ok(paths.length > 0);
    assert.deepEqual(
      paths.filter((path) => !shipped.has(path)),
      [],
    );
    assert.ok(existsSync(join(root, 'dist')));
  });
});

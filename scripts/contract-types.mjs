// The contract's declarations without zod: its types are inferred from zod schemas
// (`z.infer<typeof UsageSchema>`), so the declarations tsc emits import zod, and the browser
// entries' declarations reach them. A browser-only app installs no zod (an optional peer of the
// server entry), so the build rewrites dist/types/contract/*.d.ts: every type alias written
// with zod becomes the structural type it stands for, and the schemas and the helpers typed
// with zod are left out (no declaration outside the contract refers to them: the build fails
// if one does).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const ZOD = /\bz\.|from 'zod'|import\("zod"\)/;

/** The contract's exported type aliases, expanded, by module file name (`resources`...). */
function expandedAliases() {
  const dir = join(root, 'src', 'contract');
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
  const program = ts.createProgram(files, {
    strict: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;
  const byModule = new Map();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const aliases = new Map();
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      if (!ZOD.test(statement.type.getText(source))) continue;
      const type = checker.getTypeAtLocation(statement.name);
      // Not the alias's own name: the type it stands for, written out.
      const text = checker.typeToString(
        type,
        statement,
        flags | ts.TypeFormatFlags.NoTypeReduction,
      );
      // Another contract module's type is written as an import of its source: of its declaration.
      aliases.set(
        statement.name.text,
        text
          .replaceAll(`import("${dir}/`, 'import("./')
          .replace(/import\("(\.\/[\w-]+)"\)/g, 'import("$1.js")'),
      );
    }
    byModule.set(file.slice(dir.length + 1, -'.ts'.length), aliases);
  }
  return byModule;
}

/** Rewrites the declarations of the contract under `typesDir` (dist/types or a staging copy). */
export function rewriteContractDeclarations(typesDir) {
  const dir = join(typesDir, 'contract');
  const expanded = expandedAliases();
  const dropped = new Set();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.d.ts'))) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    const aliases = expanded.get(file.slice(0, -'.d.ts'.length)) ?? new Map();
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
    const out = [];
    for (const statement of source.statements) {
      const full = statement.getFullText(source);
      if (!ZOD.test(full)) {
        out.push(full);
        continue;
      }
      if (ts.isImportDeclaration(statement)) continue;
      if (ts.isTypeAliasDeclaration(statement) && aliases.has(statement.name.text)) {
        const leading = full.slice(0, statement.getStart(source) - statement.getFullStart());
        const params = statement.typeParameters
          ? `<${statement.typeParameters.map((p) => p.getText(source)).join(', ')}>`
          : '';
        out.push(
          `${leading}export type ${statement.name.text}${params} = ${aliases.get(statement.name.text)};`,
        );
        continue;
      }
      // A schema or a helper typed with zod: left out.
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText(source))
        : [statement.name?.getText(source) ?? '?'];
      for (const name of names) dropped.add(name);
    }
    const result = `${out.join('').trim()}\n`;
    if (ZOD.test(result)) throw new Error(`${path}: still refers to zod after the rewrite`);
    writeFileSync(path, result);
  }
  // No declaration outside the contract may need what was left out.
  const walk = (folder) =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  for (const path of walk(typesDir)) {
    if (path.startsWith(dir)) continue;
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(
      /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[./]*contract\/[^']*'/g,
    )) {
      for (const name of match[1]
        .split(',')
        .map((part) => part.replace(/^\s*type\s+/, '').trim())) {
        if (dropped.has(name)) throw new Error(`${path} refers to ${name}, which only zod types`);
      }
    }
  }
  return dropped;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dropped = rewriteContractDeclarations(process.argv[2] ?? join(root, 'dist', 'types'));
  console.log(`contract declarations without zod (${dropped.size} schemas and helpers left out)`);
}

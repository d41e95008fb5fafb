// The custom-elements manifest (dist/custom-elements.json, named by package.json
// `customElements`), read from the elements' JSDoc headers and their Lit `static properties`.
// scripts/docs.mjs runs the analyzer with this file and turns the manifest into the
// reference tables of docs/reference.md.

/**
 * Elements register themselves with `static define(tag = '<tag>')`, which the analyzer cannot
 * read as a definition: the tag is the element's folder name (src/elements/<tag>/<tag>.ts),
 * and the definition is exported by the folder's define module.
 */
function tagNamesFromFolders() {
  return {
    name: 'billing-elements:tag-names',
    packageLinkPhase({ customElementsManifest }) {
      const modules = customElementsManifest.modules ?? [];
      for (const module of modules) {
        const match = /^src\/elements\/([a-z][a-z0-9]*-[a-z0-9-]*)\/\1\.ts$/.exec(module.path);
        if (!match) continue;
        const tag = match[1];
        for (const declaration of module.declarations ?? []) {
          if (declaration.kind !== 'class' || !declaration.customElement || declaration.tagName)
            continue;
          declaration.tagName = tag;
          const defineModule =
            modules.find((m) => m.path === `src/elements/${tag}/define.ts`) ?? module;
          defineModule.exports = [
            ...(defineModule.exports ?? []),
            {
              kind: 'custom-element-definition',
              name: tag,
              declaration: { name: declaration.name, module: module.path },
            },
          ];
        }
      }
    },
  };
}

/**
 * The manifest describes the public surface of the elements: modules with no element (the
 * elements' helpers) and private members (`#x`, `private`, `protected`) are left out.
 */
function publicSurfaceOnly() {
  const isPublic = (member) =>
    !member.name.startsWith('#') && (member.privacy ?? 'public') === 'public';
  return {
    name: 'billing-elements:public-surface-only',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules = (customElementsManifest.modules ?? []).filter(
        (module) =>
          (module.declarations ?? []).some((d) => d.customElement) ||
          (module.exports ?? []).some((e) => e.kind === 'custom-element-definition'),
      );
      for (const module of customElementsManifest.modules) {
        module.declarations = (module.declarations ?? []).filter((d) => d.customElement);
        module.exports = (module.exports ?? []).filter((e) =>
          e.kind === 'custom-element-definition'
            ? true
            : module.declarations.some((d) => d.name === e.name),
        );
        for (const declaration of module.declarations) {
          const hidden = new Set(
            (declaration.members ?? []).filter((m) => !isPublic(m)).map((m) => m.name),
          );
          declaration.members = (declaration.members ?? []).filter(isPublic);
          // Lit's `state: true` properties have no attribute, whatever the analyzer says.
          declaration.attributes = (declaration.attributes ?? []).filter(
            (a) => !hidden.has(a.fieldName),
          );
        }
      }
    },
  };
}

export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['**/*.test.ts', '**/*.d.ts'],
  litelement: true,
  packagejson: false,
  quiet: true,
  plugins: [tagNamesFromFolders(), publicSurfaceOnly()],
};

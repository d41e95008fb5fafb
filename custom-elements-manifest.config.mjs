// The custom-elements manifest (dist/custom-elements.json, named by package.json
// `customElements`), read from the elements' JSDoc headers and their Lit `static properties`.
// scripts/docs.mjs runs the analyzer with this file and turns the manifest into the
// reference tables of docs/reference.md.

/**
 * Each element's class names its tag with `@tag` in its JSDoc header, which the analyzer reads.
 * The tag is defined by the class's static `define()`, called by the folder's define module
 * (src/elements/<tag>/define.ts), a call the analyzer cannot follow: that module's
 * custom-element-definition export is added here.
 */
function definitionsInDefineModules() {
  return {
    name: 'billing-elements:definitions-in-define-modules',
    packageLinkPhase({ customElementsManifest }) {
      const modules = customElementsManifest.modules ?? [];
      for (const module of modules) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.customElement || !declaration.tagName) continue;
          const folder = module.path.slice(0, module.path.lastIndexOf('/'));
          const defineModule = modules.find((m) => m.path === `${folder}/define.ts`);
          if (!defineModule) throw new Error(`${module.path}: no define.ts beside it`);
          defineModule.exports = [
            ...(defineModule.exports ?? []),
            {
              kind: 'custom-element-definition',
              name: declaration.tagName,
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
  plugins: [definitionsInDefineModules(), publicSurfaceOnly()],
};

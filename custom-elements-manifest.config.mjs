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

/**
 * The manifest names what ships, not the sources: each element's class is declared in its define
 * module as published (`dist/elements/<tag>/define.js`, which registers the tag and exports the
 * class), so a tool that follows `path` or `module` finds a file of the package.
 */
function shippedPaths() {
  const shipped = (path) => {
    const match = /^src\/elements\/([^/]+)\/[^/]+\.ts$/.exec(path);
    if (!match) throw new Error(`${path}: no shipped file for this module`);
    return `dist/elements/${match[1]}/define.js`;
  };
  const repoint = (value) => {
    if (Array.isArray(value)) value.forEach(repoint);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'module' && typeof inner === 'string' && inner.startsWith('src/'))
          value[key] = shipped(inner);
        else repoint(inner);
      }
    }
  };
  return {
    name: 'billing-elements:shipped-paths',
    packageLinkPhase({ customElementsManifest }) {
      const byPath = new Map();
      for (const module of customElementsManifest.modules ?? []) {
        const path = shipped(module.path);
        const merged = byPath.get(path) ?? {
          kind: 'javascript-module',
          path,
          declarations: [],
          exports: [],
        };
        merged.declarations.push(...(module.declarations ?? []));
        merged.exports.push(...(module.exports ?? []));
        byPath.set(path, merged);
      }
      customElementsManifest.modules = [...byPath.values()];
      repoint(customElementsManifest.modules);
      for (const module of customElementsManifest.modules) {
        // The class's own `js` export first, then the tag's definition.
        module.exports.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'js' ? -1 : 1));
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
  plugins: [definitionsInDefineModules(), publicSurfaceOnly(), shippedPaths()],
};

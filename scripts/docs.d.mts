// Types of scripts/docs.mjs for the TypeScript tests that read the manifest.
export const REFERENCE: string;
export const MANIFEST: string;
/** The manifest of the current sources. */
export function analyze(): Promise<{ modules: unknown[] }>;
/** Writes the manifest, by default to dist/custom-elements.json. */
export function writeManifest(manifest?: unknown, file?: string): Promise<unknown>;
/** Every element class of the manifest, by tag, with its module's path. */
export function elementsOf(manifest: { modules: unknown[] }): Record<string, unknown>[];

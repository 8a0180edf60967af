/// <reference types="vite/client" />
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The app's modules as text, by their path from this folder (Vite reads them: the app's tests run without Node's types). */
const SOURCES: Record<string, string> = import.meta.glob('../src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

/** A module's place below app/src, without its extension (`ui/when`). */
const placeOf = (url: URL) => url.pathname.replace(/^\/src\//, '').replace(/\.(js|ts|tsx)$/, '');

/** The modules a module imports (relative specifiers only), as places below app/src. */
function importsOf(path: string, text: string): string[] {
  const from = new URL(path.replace(/^\.\.\//, '/'), 'file://');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => placeOf(new URL(specifier, from)));
}

/** Every import of a page (a module in app/src/pages/) by the given modules, as `module → page`. */
const pageImportsOf = (sources: Record<string, string>) =>
  Object.entries(sources).flatMap(([path, text]) =>
    importsOf(path, text)
      .filter((target) => target.startsWith('pages/'))
      .map((target) => `${placeOf(new URL(path.replace(/^\.\.\//, '/'), 'file://'))} → ${target}`),
  );

describe('the layers of the app', () => {
  // The shared parts (frame, kit, data layer, page types) serve every page; a page imported by one of them makes an
  // import circle and ties every page to another's folder. Only app.tsx (through pages/registry.ts) draws pages.
  const shared = Object.fromEntries(
    Object.entries(SOURCES).filter(([path]) => /^\.\.\/src\/(components|ui|data)\//.test(path) || /^\.\.\/src\/(?!app\.tsx|main\.tsx)[^/]+$/.test(path)),
  );

  it('reads the modules it guards', () => {
    expect(Object.keys(shared)).toEqual(
      expect.arrayContaining(['../src/components/layout.tsx', '../src/ui/when.tsx', '../src/data/answer.ts', '../src/page.ts', '../src/router.ts']),
    );
  });

  it('nothing in components/, ui/, data/ or the page types imports a page', () => {
    expect(pageImportsOf(shared)).toEqual([]);
  });

  it('sees an import of a page (the guard can fail)', () => {
    expect(pageImportsOf({ '../src/app.tsx': SOURCES['../src/app.tsx'] ?? '' })).toContain('app → pages/registry');
  });
});

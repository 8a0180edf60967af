/// <reference types="vite/client" />
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The app's modules as text, by their path from this folder (Vite reads them: the app's tests run without Node's types). */
const SOURCES: Record<string, string> = import.meta.glob('../src/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
});

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
    Object.entries(SOURCES).filter(
      ([path]) =>
        /^\.\.\/src\/(components|ui|data)\//.test(path) || /^\.\.\/src\/(?!app\.tsx|main\.tsx)[^/]+$/.test(path),
    ),
  );

  it('reads the modules it guards', () => {
    expect(Object.keys(shared)).toEqual(
      expect.arrayContaining([
        '../src/components/layout.tsx',
        '../src/ui/when.tsx',
        '../src/data/answer.ts',
        '../src/page.ts',
        '../src/router.ts',
      ]),
    );
  });

  it('nothing in components/, ui/, data/ or the page types imports a page', () => {
    expect(pageImportsOf(shared)).toEqual([]);
  });

  it('sees an import of a page (the guard can fail)', () => {
    expect(pageImportsOf({ '../src/app.tsx': SOURCES['../src/app.tsx'] ?? '' })).toContain('app → pages/registry');
  });
});

/** The browser-safe rules the server decides and the app shows (shared/public/), as text by path. */
const PUBLIC_RULES: Record<string, string> = import.meta.glob('../../shared/public/**/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Every import of a module in shared/public/ that leaves the folder (a package, or a path outside it). */
const importsLeavingPublic = (sources: Record<string, string>) =>
  Object.entries(sources).flatMap(([path, text]) => {
    const from = new URL(path.replace(/^\.\.\/\.\.\//, '/'), 'file://');
    return ts
      .preProcessFile(text, true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter(
        (specifier) => !specifier.startsWith('.') || !new URL(specifier, from).pathname.startsWith('/shared/public/'),
      )
      .map((specifier) => `${path} → ${specifier}`);
  });

describe('the shared rules the dashboard shows', () => {
  it('reads the modules it guards', () => {
    expect(Object.keys(PUBLIC_RULES)).toEqual(
      expect.arrayContaining(['../../shared/public/session-rules.ts', '../../shared/public/webhook-rules.ts']),
    );
  });

  it('imports nothing outside shared/public/ (the browser bundle takes them whole)', () => {
    expect(importsLeavingPublic(PUBLIC_RULES)).toEqual([]);
  });

  it('sees an import that leaves the folder (the guard can fail)', () => {
    const leaving = {
      '../../shared/public/x.ts':
        "import { z } from 'zod';\nimport { a } from '../domain/a.js';\nimport { b } from './b.js';",
    };
    expect(importsLeavingPublic(leaving)).toEqual([
      '../../shared/public/x.ts → zod',
      '../../shared/public/x.ts → ../domain/a.js',
    ]);
  });
});

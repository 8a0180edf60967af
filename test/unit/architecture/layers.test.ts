import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers, read from the source with TypeScript's own parser (every import form: static, `export … from`,
 * `import x = require()`, dynamic `import()`, `require()`, and `import('…').T` in types).
 *
 * - shared/ is the library the functions, the stack and the local runtime are built from: it imports none of them.
 * - The domain (shared/domain) states the rules and the ports they need; adapters implement those ports, the HTTP
 *   layer and the queue handlers drive the domain, composition wires the two from the environment (shared/config.ts).
 *   The domain imports none of them, nor an AWS SDK package (that is an adapter's job).
 * - Adapters see the domain's ports, never the wiring that chooses them nor the layers that call them.
 */

const ROOT = resolve(import.meta.dirname, '../../..');

interface ImportEdge {
  /** Repository-relative path of the importing file, with `/`. */
  file: string;
  /** The module specifier as written. */
  specifier: string;
  /** Repository-relative target for a relative specifier (extension dropped), else the package name as written. */
  target: string;
}

/** Every module specifier a source file names, found by walking its syntax tree. */
function importsOf(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) specifiers.push(expression.text);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callsImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const callsRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((callsImport || callsRequire) && first && ts.isStringLiteralLike(first)) specifiers.push(first.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => ({ file, specifier, target: targetOf(file, specifier) }));
}

function targetOf(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const absolute = resolve(ROOT, dirname(file), specifier);
  return relative(ROOT, absolute)
    .split(sep)
    .join('/')
    .replace(/\.(js|ts|tsx|jsx|mjs|cjs)$/, '');
}

interface LayerRule {
  name: string;
  /** Files under this folder are checked. */
  under: string;
  /** Folders or modules of the repository (no extension) they may not import from. */
  forbiddenPaths: readonly string[];
  /** Packages they may not import, by name prefix. */
  forbiddenPackages?: readonly string[];
}

const forbids = (rule: LayerRule, edge: ImportEdge): boolean => {
  if (!edge.file.startsWith(rule.under)) return false;
  if (edge.specifier.startsWith('.'))
    return rule.forbiddenPaths.some((path) => edge.target === path || edge.target.startsWith(`${path}/`));
  return (rule.forbiddenPackages ?? []).some((name) => edge.specifier.startsWith(name));
};

const RULES: readonly LayerRule[] = [
  {
    name: 'shared/ imports nothing from the layers built on it',
    under: 'shared/',
    forbiddenPaths: ['functions', 'infra', 'local', 'scripts', 'app', 'test'],
  },
  {
    name: 'the domain imports no adapter, HTTP, queue-handler or composition module',
    under: 'shared/domain/',
    forbiddenPaths: [
      'shared/adapters',
      'shared/http',
      'shared/openapi',
      'shared/queue',
      'shared/composition',
      'shared/config',
    ],
    forbiddenPackages: ['@aws-sdk/', '@smithy/'],
  },
  {
    name: 'adapters implement ports: they import no composition, HTTP or queue-handler module',
    under: 'shared/adapters/',
    forbiddenPaths: ['shared/http', 'shared/openapi', 'shared/queue', 'shared/composition', 'shared/config'],
  },
];

/**
 * Imports that break a rule today and sit in code another piece of work is rewriting. The list may only shrink: an
 * entry that no longer occurs fails the test until it is removed here.
 */
const KNOWN_EXCEPTIONS: readonly { file: string; specifier: string }[] = [];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

function violations(
  edges: readonly ImportEdge[],
  rules: readonly LayerRule[] = RULES,
): (ImportEdge & { rule: string })[] {
  return edges.flatMap((edge) =>
    rules.filter((rule) => forbids(rule, edge)).map((rule) => ({ ...edge, rule: rule.name })),
  );
}

const sharedEdges = sourceFiles('shared').flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')));

describe('the import parser', () => {
  it('finds every import form, relative targets resolved from the importing file', () => {
    const text = [
      "import type {\n  ContactStore,\n} from '../../adapters/memory/memory-stores.js';",
      "export { thing } from '../../http/api.js';",
      "import x = require('../../composition/container.js');",
      "const later = await import('../../queue/sqs-batch.js');",
      "type T = import('@aws-sdk/client-sqs').SQSClient;",
      "// import { no } from '../../adapters/commented-out.js';",
      'const text = "from \'../../http/in-a-string.js\'";',
    ].join('\n');
    expect(importsOf('shared/domain/contacts/x.ts', text).map((edge) => edge.target)).toEqual([
      'shared/adapters/memory/memory-stores',
      'shared/http/api',
      'shared/composition/container',
      'shared/queue/sqs-batch',
      '@aws-sdk/client-sqs',
    ]);
  });

  it('flags what the rules forbid and passes what they allow', () => {
    const domain = importsOf(
      'shared/domain/contacts/x.ts',
      [
        "import { a } from '../../adapters/dynamo/a.js';",
        "import { b } from '../../../functions/routes.js';",
        "import { c } from '../../ports.js';",
        "import { d } from '../topics/topic-store.js';",
        "import { e } from '@aws-sdk/lib-dynamodb';",
        "import { f } from 'luxon';",
        "import { g } from '../../http-like/not-http.js';",
      ].join('\n'),
    );
    expect(violations(domain).map((v) => `${v.specifier} (${v.rule})`)).toEqual([
      '../../adapters/dynamo/a.js (the domain imports no adapter, HTTP, queue-handler or composition module)',
      '../../../functions/routes.js (shared/ imports nothing from the layers built on it)',
      '@aws-sdk/lib-dynamodb (the domain imports no adapter, HTTP, queue-handler or composition module)',
    ]);
    const adapter = importsOf(
      'shared/adapters/memory/x.ts',
      "import { h } from '../../composition/ports.js';\nimport { i } from '../../../infra/stack.js';\nimport { j } from '../../domain/contacts/contact-store.js';\nimport { k } from '../../configuration.js';",
    );
    expect(violations(adapter).map((v) => v.specifier)).toEqual([
      '../../composition/ports.js',
      '../../../infra/stack.js',
    ]);
  });

  it('reads the whole of shared/', () => {
    expect(new Set(sharedEdges.map((edge) => edge.file)).size).toBeGreaterThan(200);
    expect(sharedEdges.length).toBeGreaterThan(1000);
  });
});

describe('the layers', () => {
  const found = violations(sharedEdges);
  const known = (edge: ImportEdge): boolean =>
    KNOWN_EXCEPTIONS.some((k) => k.file === edge.file && k.specifier === edge.specifier);

  it.each(RULES.map((rule) => [rule.name, rule] as const))('%s', (_name, rule) => {
    const broken = found
      .filter((v) => v.rule === rule.name && !known(v))
      .map((v) => `${v.file} imports ${v.specifier}`);
    expect(broken).toEqual([]);
  });

  it('known exceptions still occur (the list only shrinks)', () => {
    const gone = KNOWN_EXCEPTIONS.filter((k) => !found.some((v) => v.file === k.file && v.specifier === k.specifier));
    expect(gone).toEqual([]);
  });
});

import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What esbuild would put into a function's bundle: the project files and the packages they import. */
async function moduleGraph(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const inputs = (result.metafile as Metafile).inputs;
  const packages = new Set<string>();
  for (const input of Object.values(inputs)) {
    for (const imported of input.imports) if (imported.external) packages.add(packageOf(imported.path));
  }
  return { files: Object.keys(inputs).sort(), packages: [...packages].sort() };
}

const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;

describe('per-route composition keeps bundles to what the route uses', () => {
  it('bundles the health route without the authenticator, template code, other stores, SES or SQS', async () => {
    // Act
    const { files, packages } = await moduleGraph('functions/http/health.ts');

    // Assess
    expect(files).not.toContain('shared/domain/auth/authenticate.ts');
    expect(files.filter((f) => /shared\/domain\/(templates|contacts|workflows|settings)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /shared\/adapters\/dynamo\/(template|contact|settings|workflow)/.test(f))).toEqual([]);
    for (const unwanted of ['eta', '@aws-sdk/client-sesv2', '@aws-sdk/client-sqs', '@aws-sdk/client-scheduler']) {
      expect(packages).not.toContain(unwanted);
    }
  });

  it('bundles a contact route with the auth chain but without the template engine or other stores', async () => {
    const { files, packages } = await moduleGraph('functions/http/contacts-get.ts');

    expect(files).toContain('shared/domain/auth/authenticate.ts');
    expect(files.filter((f) => /shared\/domain\/templates\//.test(f))).toEqual([]);
    expect(files.filter((f) => /shared\/adapters\/dynamo\/(template|settings|workflow)/.test(f))).toEqual([]);
    expect(packages).not.toContain('eta');
    expect(packages).not.toContain('@aws-sdk/client-sesv2');
  });

  it("bundles the OpenAPI route with the public chain only, the committed document beside it: no other route's code", async () => {
    const { files, packages } = await moduleGraph('functions/http/openapi.ts');

    expect(files).not.toContain('docs/openapi.json');
    const resources =
      /^shared\/domain\/(contacts|templates|workflows|settings|events|executions|sent-emails|links|tracking)\//;
    expect(files.filter((f) => resources.test(f) || /^(shared\/openapi|functions\/http\/(?!openapi))/.test(f))).toEqual(
      [],
    );
    for (const unwanted of ['eta', '@aws-sdk/client-sesv2', '@aws-sdk/client-sqs', '@aws-sdk/client-scheduler']) {
      expect(packages).not.toContain(unwanted);
    }
  });

  it('bundles the render-preview route with the template engine it needs', async () => {
    const { packages } = await moduleGraph('functions/http/email-templates-render-preview.ts');

    expect(packages).toContain('eta');
  });
});

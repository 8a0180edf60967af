import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../../functions/openapi-document.js';
import { ContractChecker } from '../../integration/support/contract-check.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const envelope = (data: unknown, meta: Record<string, unknown> = {}) =>
  JSON.stringify({ data, errors: [], message: 'OK', meta: { ...meta, request_id: 'r-1' }, success: true });
const failure = (status: string) =>
  JSON.stringify({
    data: {},
    errors: [{ condition: status, error: 'Nope', key: 'id' }],
    message: 'Nope',
    meta: { request_id: 'r-1' },
    success: false,
  });

let checker: ContractChecker;
beforeAll(async () => {
  checker = new ContractChecker(await generateOpenApiDocument());
}, 60_000);

describe('the contract check of integration answers', () => {
  it('accepts an answer its operation declares, with a body its schema accepts', () => {
    const text = envelope({ status: 'ok' });

    expect(
      checker.problems({ method: 'GET', path: '/api/v1/health', status: 200, contentType: JSON_TYPE, text }),
    ).toEqual([]);
  });

  it('names the operation, the status and each ajv error of a body that does not match', () => {
    const text = envelope({ status: 'ok', extra: 1 });

    const problems = checker.problems({
      method: 'GET',
      path: '/api/v1/health',
      status: 200,
      contentType: JSON_TYPE,
      text,
    });

    expect(problems[0]).toBe(
      'GET /api/v1/health (health) answered 200 with a body that does not match the OpenAPI document:',
    );
    expect(problems).toContain('  /data must NOT have additional properties "extra"');
    expect(problems.at(-1)).toBe(`body: ${text}`);
  });

  it('refuses a status the operation does not declare', () => {
    const problems = checker.problems({
      method: 'POST',
      path: '/api/v1/client/contacts/bulk',
      status: 404,
      contentType: JSON_TYPE,
      text: failure('not_found'),
    });

    expect(problems).toEqual([
      expect.stringMatching(
        /^POST \/api\/v1\/client\/contacts\/bulk \(contactsBulk\) answered 404, a status its operation does not declare \(declared: 200, 400, /,
      ),
    ]);
  });

  it('chooses the route API Gateway chooses: a literal segment over a parameter', () => {
    const text = envelope(
      { created: 0, updated: 0, unchanged: 0, failed: 0, results: [] },
      { dynamodb: { requests: 1, waves: 1 } },
    );

    expect(
      checker.problems({
        method: 'POST',
        path: '/api/v1/client/contacts/bulk',
        status: 200,
        contentType: JSON_TYPE,
        text,
      }),
    ).toEqual([]);
  });

  it('checks an HTML page and an answer without a body for their status only', () => {
    const page = {
      method: 'GET',
      path: '/u/abc.def',
      contentType: 'text/html; charset=utf-8',
      text: '<!DOCTYPE html><p>Gone</p>',
    };

    expect(checker.problems({ ...page, status: 404 })).toEqual([]);
    expect(checker.problems({ ...page, status: 410 })).toEqual([
      expect.stringContaining('answered 410, a status its operation does not declare'),
    ]);
    expect(
      checker.problems({ method: 'HEAD', path: '/api/v1/health', status: 200, contentType: JSON_TYPE, text: '' }),
    ).toEqual([]);
  });

  it('holds an answer without an operation to the error envelope, and skips the local-only routes', () => {
    const unknown = { method: 'GET', path: '/api/v1/nowhere', status: 404, contentType: JSON_TYPE };

    expect(checker.problems({ ...unknown, text: failure('not_found') })).toEqual([]);
    expect(checker.problems({ ...unknown, text: envelope({}) })).toContainEqual(
      expect.stringContaining('/success must be equal to constant'),
    );
    expect(
      checker.problems({
        method: 'POST',
        path: '/api/v1/dev/ses-events',
        status: 299,
        contentType: JSON_TYPE,
        text: '{}',
      }),
    ).toEqual([]);
  });
});

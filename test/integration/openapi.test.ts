import { describe, expect, inject, it } from 'vitest';
import { generateOpenApiDocument } from '../../functions/openapi-document.js';
import { checkContract } from './support/api.js';

describe('GET /api/v1/openapi.json', () => {
  it('answers the OpenAPI document the code generates, as is and without authentication', async () => {
    // Act
    const response = await fetch(`${inject('baseUrl')}/openapi.json`);
    const text = await response.text();

    // Assess
    await checkContract({
      method: 'GET',
      path: '/api/v1/openapi.json',
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = JSON.parse(text) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(document).toEqual(JSON.parse(JSON.stringify(await generateOpenApiDocument())));
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.38.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/client/contacts', '/u/{token}', '/v/{token}', '/api/v1/health']),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';

describe('GET /health', () => {
  it('answers 200 without authentication when the store is reachable', async () => {
    const res = await request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { status: 'ok' },
      errors: [],
      message: expect.any(String),
      meta: { request_id: expect.any(String) },
      success: true,
    });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await request('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: {}, meta: { request_id: expect.any(String) } });
    expect(res.body.errors[0]).toMatchObject({ condition: 'not_found' });
  });
});

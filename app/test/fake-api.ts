import { vi } from 'vitest';

/** One answer of the fake API: status and envelope `data` (or a failure's message and error items). */
export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/**
 * Replaces `fetch` with a table of answers by `METHOD /path`, recording every call: the app's real openapi-fetch
 * client runs against it (its URLs, query strings, headers and bodies are what a browser would send).
 */
export function fakeApi(answers: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)>): FakeCall[] {
  const calls: FakeCall[] = [];
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    const text = await request.text();
    const call: FakeCall = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    const entry = answers[`${call.method} ${call.path}`];
    const answer =
      typeof entry === 'function'
        ? entry(call)
        : (entry ?? { status: 404, body: { message: 'Not found', errors: [] } });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

export const ok = (data: unknown, meta: Record<string, unknown> = {}): FakeAnswer => ({
  status: 200,
  body: { data, errors: [], message: 'OK', meta: { request_id: 'r', ...meta }, success: true },
});

export const failure = (
  status: number,
  message: string,
  errors: { condition: string; error: string; key?: string }[] = [],
): FakeAnswer => ({
  status,
  body: { data: {}, errors, message, meta: { request_id: 'r' }, success: false },
});

export const ME = {
  user: {
    id: 1,
    email: 'demo@example.com',
    name: 'Demo Owner',
    role: 1,
    role_name: 'owner',
    invited_by: null,
    last_sign_in_at: null,
    created_at: '2026-01-01T00:00:00Z',
  },
  client: { id: 1, client_id: '5b0c', name: 'Demo Co', plan: 'growth', status: 'active' },
};

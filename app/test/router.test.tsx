import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followHistory, hrefOf, location, navigate, pageOf, route } from '../src/router.js';

/** Puts the browser at `path` as a fresh load would, the router's state following it. */
function at(path: string) {
  window.history.replaceState(null, '', path);
  const url = new URL(path, window.location.origin);
  location.value = { pathname: url.pathname, search: url.search };
}

/** The router as a page load meets it: its module evaluated afresh with the browser already at `path`. */
async function loadAt(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  return import('../src/router.js');
}

const popped = () =>
  new Promise<void>((resolve) => window.addEventListener('popstate', () => resolve(), { once: true }));

beforeEach(() => at('/app'));

describe('hrefOf', () => {
  it.each([
    ['contact', { id: '42' }, '/app/contact/42'],
    ['template', { id: '1001' }, '/app/template/1001'],
    ['workflow', { id: '1' }, '/app/workflow/1'],
    ['webhook', { id: '5', after: 'a1' }, '/app/webhook/5?after=a1'],
    [
      'sent-email',
      { id: '0b9f5a3e-6c1d-4f7e-9a51-2d3c4b5a6978' },
      '/app/sent-email/0b9f5a3e-6c1d-4f7e-9a51-2d3c4b5a6978',
    ],
    // An e-mail address is a contact's id too: percent-encoded, so the path stays one segment whatever it holds.
    ['contact', { id: 'ann+news@example.com' }, '/app/contact/ann%2Bnews%40example.com'],
    ['contact', { id: 'a/b?c#d e' }, '/app/contact/a%2Fb%3Fc%23d%20e'],
    // No record named: the page alone, as before.
    ['contact', { id: '' }, '/app/contact'],
    [
      'contacts',
      { email_prefix: 'ada', is_subscribed: '', source: 'api' },
      '/app/contacts?email_prefix=ada&source=api',
    ],
    ['executions', { status: '4' }, '/app/executions?status=4'],
    ['overview', {}, '/app/overview'],
  ] as const)('%s with %j is %s: a record in the path, the filters in the query', (page, params, href) => {
    expect(hrefOf(page, params)).toBe(href);
  });
});

describe('route', () => {
  it.each([
    ['/app/contact/42', 'contact', { id: '42' }],
    ['/app/webhook/5?after=a1', 'webhook', { id: '5', after: 'a1' }],
    ['/app/contact/ann%2Bnews%40example.com', 'contact', { id: 'ann+news@example.com' }],
    // The path's id decides over a stray query id.
    ['/app/template/7?id=8', 'template', { id: '7' }],
    // The older form: the record in the query.
    ['/app/contact?id=42', 'contact', { id: '42' }],
    [
      '/app/sent-email?id=0b9f5a3e-6c1d-4f7e-9a51-2d3c4b5a6978',
      'sent-email',
      { id: '0b9f5a3e-6c1d-4f7e-9a51-2d3c4b5a6978' },
    ],
    ['/app/webhook?id=5&after=a1', 'webhook', { id: '5', after: 'a1' }],
    ['/app/contacts?email_prefix=ada', 'contacts', { email_prefix: 'ada' }],
    ['/app', 'home', {}],
    ['/app/', 'home', {}],
  ] as const)('reads %s as the page %s with %j', (path, page, params) => {
    at(path);

    expect(route.value).toEqual({ page, params });
  });

  it.each([
    '/app/billing',
    '/app/billing/3',
    '/app/overview/3',
    '/app/contacts/42',
    '/app/contact/',
    '/app/contact/42/activity',
    '/app/contact/%E0%A4%A',
    '/elsewhere',
  ])('reads %s as an unknown page', (path) => {
    expect(pageOf(path)).toBe('unknown');
  });

  it.each([
    ['contact', { id: 'ann+news@example.com' }],
    ['contact', { id: 'a/b?c#d e%' }],
    ['webhook', { id: '5', after: 'a1', status: 'failed' }],
    ['contacts', { email_prefix: 'ann@', source: 'api' }],
  ] as const)('reads back what hrefOf wrote for %s %j', (page, params) => {
    at(hrefOf(page, params));

    expect(route.value).toEqual({ page, params });
  });
});

describe('an address in the older form', () => {
  it.each([
    ['/app/contact?id=42', '/app/contact/42'],
    ['/app/contact?id=ann%40example.com', '/app/contact/ann%40example.com'],
    ['/app/webhook?id=5&after=a1', '/app/webhook/5?after=a1'],
    ['/app/template?id=1001#preview', '/app/template/1001#preview'],
    // Typed by hand, not percent-encoded: the address becomes the one hrefOf writes.
    ['/app/contact/ann@example.com', '/app/contact/ann%40example.com'],
  ])('%s opens its record and is rewritten in place to %s, adding no history entry', async (old, rewritten) => {
    const before = window.history.length;

    const router = await loadAt(old);

    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(rewritten);
    expect(window.history.length).toBe(before);
    const url = new URL(rewritten, window.location.origin);
    expect(router.location.value).toEqual({ pathname: url.pathname, search: url.search });
    expect(router.route.value.params['id']).toBe(
      new URL(old, window.location.origin).searchParams.get('id') ?? 'ann@example.com',
    );
  });

  it.each(['/app/contacts?email_prefix=ada', '/app/contact/42?after=a1', '/app/executions?status=4', '/app/contact'])(
    '%s is left as it is',
    async (path) => {
      const router = await loadAt(path);

      expect(`${window.location.pathname}${window.location.search}`).toBe(path);
      expect(router.location.value.pathname).toBe(new URL(path, window.location.origin).pathname);
    },
  );
});

describe('navigate and the back and forward buttons', () => {
  let stop: () => void = () => {};
  afterEach(() => stop());

  it('pushes each record page in the new form, and Back and Forward return to each with its id', async () => {
    // Prepare
    at('/app/contacts');
    stop = followHistory();

    // Act
    navigate('contact', { id: 'ann@example.com' });
    navigate('webhook', { id: '5', after: 'a1' });

    // Assess
    expect(window.location.pathname).toBe('/app/webhook/5');
    expect(window.location.search).toBe('?after=a1');
    expect(route.value).toEqual({ page: 'webhook', params: { id: '5', after: 'a1' } });

    let pop = popped();
    window.history.back();
    await pop;
    expect(window.location.pathname).toBe('/app/contact/ann%40example.com');
    expect(route.value).toEqual({ page: 'contact', params: { id: 'ann@example.com' } });

    pop = popped();
    window.history.back();
    await pop;
    expect(route.value).toEqual({ page: 'contacts', params: {} });

    pop = popped();
    window.history.forward();
    await pop;
    expect(route.value).toEqual({ page: 'contact', params: { id: 'ann@example.com' } });
  });

  it('replaces the entry when asked, and pushes none when already there', () => {
    at('/app/contacts');
    const before = window.history.length;

    navigate('contact', { id: '42' }, { replace: true });
    navigate('contact', { id: '42' });

    expect(window.history.length).toBe(before);
    expect(window.location.pathname).toBe('/app/contact/42');
  });

  it('rewrites an older-form entry the browser returns to', async () => {
    // Prepare: an entry in the older form, as a page written before the change might have pushed
    at('/app/contacts');
    stop = followHistory();
    window.history.pushState(null, '', '/app/contact?id=42');
    navigate('contacts');

    // Act
    const pop = popped();
    window.history.back();
    await pop;

    // Assess
    expect(window.location.pathname).toBe('/app/contact/42');
    expect(window.location.search).toBe('');
    expect(route.value).toEqual({ page: 'contact', params: { id: '42' } });
  });
});

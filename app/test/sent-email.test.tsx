import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { engagementOf, SentEmailPage } from '../src/pages/sent-email/sent-email-page.js';
import { as, logOf, SENT_ID } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';

const HTML = `<html><head><style>p { color: #333; background: url(https://cdn.example.net/bg.png) }</style><script>alert(1)</script></head>
<body style="margin:0"><img src="https://cdn.example.net/logo.png" alt="Acme"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="dot">
<p style="margin:0 0 16px;">Welcome, Ada</p><a href="https://acme.example/start">Start</a></body></html>`;

const email = (overrides: Record<string, unknown> = {}) => ({
  id: SENT_ID,
  client_id: 1,
  contact_id: 42,
  email_template_id: 5,
  email_template_name: 'Welcome',
  from_email: 'Acme <hello@acme.example>',
  to_email: 'ada@example.com',
  subject: 'Welcome aboard',
  html_body: HTML,
  text_body: 'Welcome, Ada',
  browser_url: 'http://localhost:3000/v/tok',
  provider_message_id: 'ses-1',
  status: 5,
  status_text: 'clicked',
  status_updated_at: '2026-11-26T09:05:00.000Z',
  created_at: '2026-11-26T09:00:00.000Z',
  execution_id: 77,
  logs: [
    logOf(1, 'queued'),
    logOf(3, 'delivered'),
    logOf(4, 'opened', { is_bot: true, bot_reason: 'security_scanner', user_agent: 'Barracuda' }),
    logOf(5, 'clicked', { is_bot: true, bot_reason: 'too_fast', url: 'https://acme.example/start', id: 'c1' }),
    logOf(4, 'opened', { id: 'o2' }),
    logOf(5, 'clicked', { url: 'https://acme.example/start', id: 'c2' }),
  ],
  ...overrides,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sent e-mail page', () => {
  it("frames the server's document of the message by its URL, in a sandbox with no token (the page never reads the HTML)", async () => {
    const calls = fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: ok(email()) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    const frame = (await screen.findByTitle('The e-mail "Welcome aboard" as sent')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    // sandbox="" : no allow-scripts, no allow-same-origin; the document comes from the server, never from srcdoc
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('src')).toBe(`/api/v1/client/sent-emails/${SENT_ID}/html`);
    expect(frame.hasAttribute('srcdoc')).toBe(false);
    expect(document.body.innerHTML).not.toMatch(/cdn\.example\.net|<script/);
    expect(screen.getByText(/Images from other sites are not loaded here/)).toBeTruthy();
    expect(calls.map((call) => call.path)).toEqual([`/api/v1/client/sent-emails/${SENT_ID}`]);
    expect(screen.getByRole('link', { name: 'The contact' }).getAttribute('href')).toBe('/app/contact/42');
  });

  it('shows no frame for an erased e-mail', async () => {
    fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: ok(email({ html_body: '' })) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    expect(await screen.findByText('No HTML body (erased).')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('shows its status logs as a timeline, with the machine opens and clicks marked and why', async () => {
    fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: ok(email()) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    const history = await screen.findByRole('list', { name: 'Status history, oldest first' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '2026-11-26 09:00:01 UTC queued',
      '2026-11-26 09:00:01 UTC delivered',
      '2026-11-26 09:00:01 UTC opened by a machine: a mail security scanner (its user agent or network) security_scanner',
      '2026-11-26 09:00:01 UTC clicked by a machine: clicked within seconds of the delivery, faster than a person too_fast on https://acme.example/start',
      '2026-11-26 09:00:01 UTC opened by a person',
      '2026-11-26 09:00:01 UTC clicked by a person on https://acme.example/start',
    ]);
    const counts = screen.getByRole('region', { name: 'Opens and clicks' }).textContent!;
    expect(counts).toContain('Opens by a person1Clicks by a person1Opens by machines1Clicks by machines1');
    expect(screen.getByRole('region', { name: 'The e-mail' }).textContent).toContain(
      'Statusclicked since 2026-11-26 09:05:00 UTC',
    );
  });

  it("shows the API's refusal (an unknown id)", async () => {
    fakeApi({
      [`GET /api/v1/client/sent-emails/${SENT_ID}`]: failure(404, 'Sent e-mail not found', [
        { condition: 'not_found', error: 'No such e-mail', key: 'id' },
      ]),
    });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    expect((await screen.findByRole('alert')).textContent).toBe('Sent e-mail not foundid No such e-mail');
  });
});

describe('engagementOf', () => {
  it('counts opens and clicks by people and by machines apart', () => {
    expect(engagementOf(email() as never)).toEqual({ opens: 1, botOpens: 1, clicks: 1, botClicks: 1 });
  });
});

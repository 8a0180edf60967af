import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { frameEmail } from '../src/pages/sent-email/email-frame.js';
import { engagementOf, SentEmailPage } from '../src/pages/sent-email/sent-email-page.js';
import { as, logOf, SENT_ID } from './contacts-fixtures.js';
import { failure, fakeApi, ok } from './fake-api.js';

const HTML = `<html><head><style>p { color: #333; background: url(https://cdn.example.net/bg.png) }</style><script>alert(1)</script></head>
<body style="margin:0"><img src="https://cdn.example.net/logo.png" alt="Acme"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="dot">
<p style="margin:0 0 16px;">Welcome, Ada</p><a href="https://acme.example/start">Start</a></body></html>`;

const email = (overrides: Record<string, unknown> = {}) => ({
  id: SENT_ID, client_id: 1, contact_id: 42, email_template_id: 5, email_template_name: 'Welcome', from_email: 'Acme <hello@acme.example>',
  to_email: 'ada@example.com', subject: 'Welcome aboard', html_body: HTML, text_body: 'Welcome, Ada', browser_url: 'http://localhost:3000/v/tok',
  provider_message_id: 'ses-1', status: 5, status_text: 'clicked', status_updated_at: '2026-11-26T09:05:00.000Z', created_at: '2026-11-26T09:00:00.000Z',
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
  it('shows the message in a sandboxed frame (no script, no inline style, nothing from another origin)', async () => {
    const calls = fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: ok(email()) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    const frame = (await screen.findByTitle('The e-mail "Welcome aboard" as sent')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    const srcdoc = frame.getAttribute('srcdoc')!;
    expect(srcdoc).toContain('Welcome, Ada');
    expect(srcdoc).not.toMatch(/<script|\sstyle=|<style|cdn\.example\.net/);
    expect(srcdoc).toContain('src="data:image/gif');
    expect(screen.getByText(/1 image from another site not shown here/)).toBeTruthy();
    expect(calls.map((call) => call.path)).toEqual([`/api/v1/client/sent-emails/${SENT_ID}`]);
    expect(screen.getByRole('link', { name: 'The contact' }).getAttribute('href')).toBe('/app/contact?id=42');
  });

  it('shows its status logs as a timeline, with the machine opens and clicks marked and why', async () => {
    fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: ok(email()) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    const history = await screen.findByRole('list', { name: 'Status history, oldest first' });
    expect(within(history).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2026-11-26 09:00:01 UTC queued',
      '2026-11-26 09:00:01 UTC delivered',
      '2026-11-26 09:00:01 UTC opened by a machine: a mail security scanner (its user agent or network) security_scanner',
      '2026-11-26 09:00:01 UTC clicked by a machine: clicked within seconds of the delivery, faster than a person too_fast on https://acme.example/start',
      '2026-11-26 09:00:01 UTC opened by a person',
      '2026-11-26 09:00:01 UTC clicked by a person on https://acme.example/start',
    ]);
    const counts = screen.getByRole('region', { name: 'Opens and clicks' }).textContent!;
    expect(counts).toContain('Opens by a person1Clicks by a person1Opens by machines1Clicks by machines1');
    expect(screen.getByRole('region', { name: 'The e-mail' }).textContent).toContain('Statusclicked since 2026-11-26 09:05:00 UTC');
  });

  it("shows the API's refusal (an unknown id)", async () => {
    fakeApi({ [`GET /api/v1/client/sent-emails/${SENT_ID}`]: failure(404, 'Sent e-mail not found', [{ condition: 'not_found', error: 'No such e-mail', key: 'id' }]) });

    render(<SentEmailPage api={createApi()} params={{ id: SENT_ID }} signedIn={as('viewer')} />);

    expect((await screen.findByRole('alert')).textContent).toBe('Sent e-mail not foundid No such e-mail');
  });
});

describe('frameEmail', () => {
  it('moves inline styles and style sheets aside, drops scripts and remote images, keeps the rest', () => {
    const framed = frameEmail(HTML, 'http://localhost:3000');

    expect(framed.styles).toEqual(['margin:0', 'margin:0 0 16px;']);
    expect(framed.sheets).toEqual(['p { color: #333; background: none }']);
    expect(framed.imagesLeftOut).toBe(1);
    expect(framed.html).toContain('<body data-ct-style="0">');
    expect(framed.html).toContain('<p data-ct-style="1">Welcome, Ada</p>');
    expect(framed.html).toContain('<img alt="Acme">');
    expect(framed.html).toContain('<a data-ct-href="https://acme.example/start" title="https://acme.example/start">Start</a>');
    expect(framed.html).not.toMatch(/<script|<style|\sstyle=|\shref=/);
  });

  it('reads a style as the parser would (entities, either quote, unquoted), and keeps a quoted ">" inside its tag', () => {
    const framed = frameEmail(
      `<td style="font-family:&quot;Segoe UI&quot;, Arial; content:'>'" class=x><span style='color:#fff'>a</span><b style=margin:0 onclick="x()">b</b></td>`,
      'http://localhost:3000',
    );

    expect(framed.styles).toEqual(['font-family:"Segoe UI", Arial; content:\'>\'', 'color:#fff', 'margin:0']);
    expect(framed.html).toBe('<td data-ct-style="0" class="x"><span data-ct-style="1">a</span><b data-ct-style="2">b</b></td>');
  });

  it('keeps images of its own origin', () => {
    expect(frameEmail('<img src="/logo.png" alt="">', 'http://localhost:3000').imagesLeftOut).toBe(0);
  });
});

describe('engagementOf', () => {
  it('counts opens and clicks by people and by machines apart', () => {
    expect(engagementOf(email() as never)).toEqual({ opens: 1, botOpens: 1, clicks: 1, botClicks: 1 });
  });
});

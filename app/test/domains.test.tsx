import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { DomainPage } from '../src/pages/domains/domain-page.js';
import { DomainsPage } from '../src/pages/domains/domains-page.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, type FakeCall, ok } from './fake-api.js';

const AT = '2026-11-28T09:00:00.000Z';
const NEXT = '2026-11-28T09:05:00.000Z';
const DMARC_ADVICE = 'Gmail and Yahoo require bulk senders to publish a DMARC record.';

const ownership = (status = 'pending') => ({
  purpose: 'ownership',
  name: '_els-challenge.example.com',
  type: 'TXT',
  value: 'els-domain-verification=tok3n',
  priority: null,
  required: true,
  status,
});
const PROVEN_RECORDS = [
  ownership('not_applicable'),
  ...['a1', 'b2', 'c3'].map((token) => ({
    purpose: 'dkim',
    name: `${token}._domainkey.example.com`,
    type: 'CNAME',
    value: `${token}.dkim.amazonses.com`,
    priority: null,
    required: true,
    status: 'pending',
  })),
  {
    purpose: 'mail_from_mx',
    name: 'bounce.example.com',
    type: 'MX',
    value: 'feedback-smtp.eu-west-1.amazonses.com',
    priority: 10,
    required: false,
    status: 'pending',
  },
  {
    purpose: 'mail_from_spf',
    name: 'bounce.example.com',
    type: 'TXT',
    value: 'v=spf1 include:amazonses.com ~all',
    priority: null,
    required: false,
    status: 'pending',
  },
  {
    purpose: 'dmarc',
    name: '_dmarc.example.com',
    type: 'TXT',
    value: 'v=DMARC1; p=none; rua=mailto:dmarc@example.com',
    priority: null,
    required: false,
    status: 'missing',
  },
];

const domainOf = (overrides: Record<string, unknown> = {}) => ({
  id: 7,
  domain: 'example.com',
  status: 'awaiting_proof',
  failure_reason: null,
  created_at: AT,
  proven_at: null,
  verified_at: null,
  proof_expires_at: '2026-12-01T09:00:00.000Z',
  last_checked_at: null,
  next_check_at: NEXT,
  records: [ownership()],
  mail_from_domain: 'bounce.example.com',
  dmarc: { record: null, policy: null, meets_bulk_sender_rules: false, advice: DMARC_ADVICE },
  ...overrides,
});
const list = (domains: unknown[]) => ok({ domains }, { total: domains.length, max_domains: 10 });
const changes = (calls: FakeCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body]);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the domains page', () => {
  it('explains the sandbox while there is no domain, and adds one, opening its page', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/domains': list([]),
      'POST /api/v1/client/domains': () => ({
        status: 201,
        body: { data: domainOf(), errors: [], message: 'Created', meta: { request_id: 'r' }, success: true },
      }),
    });
    render(<DomainsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    expect((await screen.findByText(/No domain yet/)).textContent).toMatch(
      /sandbox.*only to your dashboard’s users and SES’s mailbox simulator \(…@simulator\.amazonses\.com\)/,
    );

    // Act
    fireEvent.input(screen.getByLabelText('Domain'), { target: { value: ' Example.COM ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));

    // Assess: the name as typed but trimmed (the API lower-cases it), then the new domain's own page
    await waitFor(() => expect(window.location.pathname).toBe('/app/domain/7'));
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/domains', { domain: 'Example.COM' }]]);
  });

  it.each([
    [422, 'format', 'Must be a domain name such as example.com'],
    [422, 'unsafe', 'email-lifecycle.example is one of the service’s own domains'],
    [409, 'unique', 'example.com is verified by another account; if you control it, contact support'],
  ])("shows a %i '%s' at the domain field", async (status, condition, error) => {
    // Prepare
    fakeApi({
      'GET /api/v1/client/domains': list([]),
      'POST /api/v1/client/domains': failure(status, 'Refused', [{ condition, error, key: 'domain' }]),
    });
    render(<DomainsPage api={createApi()} params={{}} signedIn={as('owner')} />);
    const field = await screen.findByLabelText('Domain');

    // Act
    fireEvent.input(field, { target: { value: 'example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add domain' }));

    // Assess: at the field (described by its error, invalid), not repeated in the alert
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('dm-domain-error')?.textContent).toBe(error);
    expect(field.getAttribute('aria-describedby')?.split(' ')[0]).toBe('dm-domain-error');
    expect(screen.getByRole('alert').textContent).toBe('Refused');
    expect(window.location.pathname).not.toBe('/app/domain/7');
  });

  it('lists the domains with their status and links to each; a viewer gets no form', async () => {
    // Prepare
    fakeApi({
      'GET /api/v1/client/domains': list([
        domainOf({ status: 'verified', verified_at: AT, next_check_at: null }),
        domainOf({ id: 8, domain: 'gone.example', status: 'failed', failure_reason: 'claimed_elsewhere' }),
      ]),
    });

    // Act
    render(<DomainsPage api={createApi()} params={{}} signedIn={as('viewer')} />);

    // Assess
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['example.com', 'Verified', '2026-11-28 09:00:00 UTC', '—'],
      [
        'gone.example',
        'FailedAnother account proved this domain first. If you control it, contact support.',
        '—',
        '2026-11-28 09:05:00 UTC',
      ],
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'example.com' }).getAttribute('href')).toBe('/app/domain/7');
    expect(rows[1]!.querySelector('.outcome')?.className).toBe('outcome outcome-failed');
    expect(screen.getByText(/2 of at most 10 domains/)).toBeTruthy();
    expect(screen.queryByLabelText('Domain')).toBeNull();
    expect(screen.getByText(/Your role reads the domains/)).toBeTruthy();
  });
});

describe('a domain’s page', () => {
  it('lists the records to publish, each value copied with its own button, and the DMARC card', async () => {
    // Prepare
    const writes: string[] = [];
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async (text: string) => void writes.push(text) },
    });
    const dmarc = {
      record: 'v=DMARC1; p=quarantine',
      policy: 'quarantine',
      meets_bulk_sender_rules: true,
      advice: DMARC_ADVICE,
    };
    fakeApi({
      'GET /api/v1/client/domains/7': ok(
        domainOf({ status: 'verifying', proven_at: AT, records: PROVEN_RECORDS, dmarc }),
      ),
    });

    // Act
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('viewer')} />);

    // Assess: purpose, type, name, value, priority, status of each record
    const table = await screen.findByRole('table', { name: /Records for example.com/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        [...row.children].map((cell) => cell.querySelector('code, .outcome')?.textContent ?? cell.textContent),
      ),
    ).toEqual([
      [
        'Ownershiprequired',
        'TXT',
        '_els-challenge.example.com',
        'els-domain-verification=tok3n',
        '—',
        'No longer needed',
      ],
      ['DKIMrequired', 'CNAME', 'a1._domainkey.example.com', 'a1.dkim.amazonses.com', '—', 'Not seen yet'],
      ['DKIMrequired', 'CNAME', 'b2._domainkey.example.com', 'b2.dkim.amazonses.com', '—', 'Not seen yet'],
      ['DKIMrequired', 'CNAME', 'c3._domainkey.example.com', 'c3.dkim.amazonses.com', '—', 'Not seen yet'],
      [
        'MAIL FROM (MX)advised',
        'MX',
        'bounce.example.com',
        'feedback-smtp.eu-west-1.amazonses.com',
        '10',
        'Not seen yet',
      ],
      ['MAIL FROM (SPF)advised', 'TXT', 'bounce.example.com', 'v=spf1 include:amazonses.com ~all', '—', 'Not seen yet'],
      ['DMARCadvised', 'TXT', '_dmarc.example.com', 'v=DMARC1; p=none; rua=mailto:dmarc@example.com', '—', 'Missing'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the value of CNAME b2._domainkey.example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy the value of MX bounce.example.com' }));
    await waitFor(() => expect(writes).toEqual(['b2.dkim.amazonses.com', 'feedback-smtp.eu-west-1.amazonses.com']));
    expect(within(rows[1]!).getByRole('status').textContent).toBe('');
    expect(within(rows[2]!).getByRole('status').textContent).toBe('Copied.');

    const card = screen.getByRole('region', { name: 'DMARC' });
    expect(card.textContent).toContain('p=quarantine');
    expect(card.textContent).toContain('v=DMARC1; p=quarantine');
    expect(card.textContent).toContain('Bulk sender rulesMet');
    expect(card.textContent).toContain(DMARC_ADVICE);
    // A viewer reads: no check, no deletion, no local publishing
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete example.com' })).toBeNull();
  });

  it('checks now on request and shows the new state and the next check time', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/domains/7': ok(domainOf()),
      'POST /api/v1/client/domains/7/verify': ok(
        domainOf({
          status: 'verifying',
          proven_at: AT,
          last_checked_at: AT,
          next_check_at: '2026-11-28T09:15:00.000Z',
          records: PROVEN_RECORDS,
        }),
      ),
    });
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    const state = await screen.findByRole('region', { name: /^Status:/ });
    expect(state.querySelector('h2')?.textContent).toBe('Status: Awaiting proof');
    expect(within(state).getByText('Next check at').nextElementSibling?.textContent).toBe('2026-11-28 09:05:00 UTC');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));

    // Assess
    await waitFor(() => expect(state.querySelector('h2')?.textContent).toBe('Status: Verifying'));
    expect(within(state).getByText('Next check at').nextElementSibling?.textContent).toBe('2026-11-28 09:15:00 UTC');
    expect(within(state).getByRole('status').textContent).toMatch(/^Checked: verifying\. Ownership proven/);
    expect(screen.getAllByRole('button', { name: /^Copy the value of CNAME/ })).toHaveLength(3);
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/domains/7/verify', undefined]]);
  });

  it('says when the answer is the stored state because the domain was checked moments ago', async () => {
    fakeApi({
      'GET /api/v1/client/domains/7': ok(domainOf({ status: 'verifying', last_checked_at: AT })),
      'POST /api/v1/client/domains/7/verify': ok(domainOf({ status: 'verifying', last_checked_at: AT })),
    });
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    const state = await screen.findByRole('region', { name: /^Status:/ });

    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));

    await waitFor(() =>
      expect(within(state).getByRole('status').textContent).toBe(
        'Looked at less than 10 s ago, so not again yet: press Check now in a few seconds.',
      ),
    );
  });

  it("shows a refused check's reason", async () => {
    fakeApi({
      'GET /api/v1/client/domains/7': ok(domainOf({ status: 'verifying' })),
      'POST /api/v1/client/domains/7/verify': failure(409, 'The domain failed: delete it and add it again', [
        { condition: 'state', error: 'failed' },
      ]),
    });
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check now' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The domain failed: delete it and add it again');
  });

  it('deletes after asking, and says where the From now falls back', async () => {
    // Prepare
    const warning = 'Your From hello@example.com was at this domain: mail now goes from the onboarding sender.';
    const calls = fakeApi({
      'GET /api/v1/client/domains/7': ok(domainOf({ status: 'verified', verified_at: AT })),
      'DELETE /api/v1/client/domains/7': ok({ ...domainOf({ status: 'verified' }), warning }),
    });
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    const zone = await screen.findByRole('region', { name: 'Delete this domain' });
    expect(zone.className).toBe('card danger-zone');

    // Act: asked first; Cancel does nothing
    fireEvent.click(within(zone).getByRole('button', { name: 'Delete example.com' }));
    fireEvent.click(within(zone).getByRole('button', { name: 'Cancel' }));
    expect(changes(calls)).toEqual([]);
    fireEvent.click(within(zone).getByRole('button', { name: 'Delete example.com' }));
    fireEvent.click(within(zone).getByRole('button', { name: 'Yes, delete' }));

    // Assess
    expect((await screen.findByText(/is deleted/)).textContent).toBe(
      'example.com is deleted: no mail goes out From it any more.',
    );
    expect(screen.getByText(warning)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Domains' }).getAttribute('href')).toBe('/app/domains');
    expect(changes(calls)).toEqual([['DELETE', '/api/v1/client/domains/7', undefined]]);
  });

  it('offers the local DNS only where its dev route answers, and publishes the shown records there', async () => {
    // Prepare: a runtime without the dev route (AWS) first
    const domain = domainOf({ status: 'verifying', records: PROVEN_RECORDS });
    const probed = fakeApi({ 'GET /api/v1/client/domains/7': ok(domain) });
    const { unmount } = render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    await screen.findByRole('table');
    await waitFor(() => expect(probed.map((call) => call.path)).toContain('/api/v1/dev/dns-records'));
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Local runtime' })).toBeNull();
    unmount();

    // Prepare: the local runtime
    const calls = fakeApi({
      'GET /api/v1/client/domains/7': ok(domain),
      'GET /api/v1/dev/dns-records': ok({ records: [] }),
      'PUT /api/v1/dev/dns-records': (call) => ok(call.body, {}),
    });
    render(<DomainPage api={createApi()} params={{ id: '7' }} signedIn={as('owner')} />);
    const card = await screen.findByRole('region', { name: 'Local runtime' });

    // Act
    fireEvent.click(within(card).getByRole('button', { name: 'Publish these records to the local DNS' }));

    // Assess: every record shown, a priority for the MX only
    await waitFor(() =>
      expect(within(card).getByRole('status').textContent).toBe(
        '7 records published to the local DNS: press Check now.',
      ),
    );
    expect(calls.find((call) => call.path === '/api/v1/dev/dns-records')?.query.get('name')).toBe('example.com');
    expect(changes(calls)).toEqual([
      [
        'PUT',
        '/api/v1/dev/dns-records',
        {
          records: PROVEN_RECORDS.map(({ name, type, value, priority }) => ({
            name,
            type,
            value,
            ...(priority === null ? {} : { priority }),
          })),
        },
      ],
    ]);
    expect((changes(calls)[0]![2] as { records: object[] }).records[4]).toEqual({
      name: 'bounce.example.com',
      type: 'MX',
      value: 'feedback-smtp.eu-west-1.amazonses.com',
      priority: 10,
    });
  });

  it('says so when the address names no domain', async () => {
    fakeApi({});
    render(<DomainPage api={createApi()} params={{ id: 'abc' }} signedIn={as('owner')} />);
    expect((await screen.findByRole('alert')).textContent).toContain('No domain named: abc');
  });
});

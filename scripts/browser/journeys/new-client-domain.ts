import type { Page } from 'puppeteer-core';
import { clientAdminDeps } from '../../../shared/composition/providers/client-admin.js';
import { createClient } from '../../../shared/domain/clients/create-client.js';
import { CHECK_NOW_MIN_SECONDS } from '../../../shared/public/domain-rules.js';
import {
  type BrowserContext,
  DESKTOP,
  type Journey,
  inspectPage,
  openFromNav,
  screenshot,
  waitFor,
} from '../harness.js';
import { clickButton, retype } from './settings.js';

/** The new client's own domain and its owner: nobody else on a fresh runtime has either. */
const DOMAIN = 'first-steps.example';
const OWNER = { email: 'founder@first-steps.example', name: 'First Steps Ltd' };
const FROM = `hello@${DOMAIN}`;
/** A customer of the client's, not one of its dashboard users: the sandbox would skip them. */
const CONTACT = 'first-customer@example.com';

interface DnsRow {
  name: string;
  type: string;
  value: string;
  priority?: number | null;
}

interface StoredEmail {
  from: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}

const sesStore = async (ctx: BrowserContext): Promise<StoredEmail[]> =>
  ((await (await fetch(`${ctx.sesUrl}/store`)).json()) as { emails: StoredEmail[] }).emails;

/** A request with the new client's own key, as its systems (or the README's curl) make it. */
async function callAs(ctx: BrowserContext, key: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, json: text ? JSON.parse(text) : undefined };
}

/**
 * The new owner's page sits in a browser context of its own (the demo's session stays for the journeys after this
 * one), so it gets the same watch the demo's page has: no console error, no failed request, nothing from elsewhere.
 */
function watch(page: Page, origin: string, problems: string[], signedIn: () => boolean): void {
  // Signed out, /auth/me answers 401 and the app shows its sign-in page: the only refusal this walk expects.
  const expected = (status: number, url: string) => status === 401 && url === `${origin}/api/v1/auth/me` && !signedIn();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:'))
      problems.push(`new client: request to another origin: ${url}`);
  });
  page.on('response', (answer) => {
    if (answer.status() >= 400 && !expected(answer.status(), answer.url()))
      problems.push(`new client: ${answer.status()} for ${answer.request().method()} ${answer.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = Number(message.text().match(/status of (\d{3})/)?.[1]);
    if (status && expected(status, message.location().url ?? '')) return;
    problems.push(`new client: console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`new client: page error: ${String(error)}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // The app cancels a read whose page was left before the answer: nothing went wrong.
    if (request.resourceType() === 'fetch' && reason === 'net::ERR_ABORTED') return;
    problems.push(`new client: request failed: ${request.url()} ${reason}`);
  });
}

/** Signs the owner in as a person does: the address, Enter, the link from the e-mail, "Sign in". */
async function signIn(ctx: BrowserContext, email: string): Promise<void> {
  const { page } = ctx;
  await page.goto(`${ctx.origin}/app`);
  await page.waitForSelector('#sign-in-email', { visible: true, timeout: 10_000 });
  await page.focus('#sign-in-email');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Check your e-mail'`, { timeout: 10_000 });
  const link = await waitFor(`the sign-in e-mail to ${email}`, async () => {
    const mail = (await sesStore(ctx)).filter((m) => m.destination.to.some((to) => to.includes(email))).at(-1);
    return `${mail?.body.text ?? ''} ${mail?.body.html ?? ''}`.match(
      /https?:\/\/[^\s"<>]+\/api\/v1\/auth\/callback\?token=[A-Za-z0-9_.~-]+/,
    )?.[0];
  });
  await page.goto(link);
  await page.waitForSelector('form[method="post"] button[type="submit"]', { visible: true, timeout: 10_000 });
  await page.focus('form[method="post"] button[type="submit"]');
  await Promise.all([page.waitForNavigation({ timeout: 10_000 }), page.keyboard.press('Enter')]);
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Overview'`, { timeout: 10_000 });
}

/** The overview's sandbox card, once the overview is drawn: its text, or null when it shows none. */
async function sandboxNote(ctx: BrowserContext): Promise<string | null> {
  await ctx.page.waitForSelector('#rates-title', { visible: true, timeout: 10_000 });
  return (await ctx.page.evaluate(
    `document.getElementById('sandbox-title')?.closest('section')?.textContent ?? null`,
  )) as string | null;
}

/** The records the domain's page shows, as a person reads them off its table. */
const shownRecords = async (ctx: BrowserContext): Promise<DnsRow[]> =>
  (await ctx.page.$$eval('#dm-records tbody tr', (rows) =>
    rows.map((row) => {
      const cells = [...row.querySelectorAll('td')].map(
        (td) => td.querySelector('code')?.textContent ?? td.textContent,
      );
      const priority = cells[3] === '—' ? null : Number(cells[3]);
      return { type: cells[0] ?? '', name: cells[1] ?? '', value: cells[2] ?? '', priority };
    }),
  )) as DnsRow[];

const recordKey = (r: DnsRow) => `${r.type} ${r.name} ${r.value} ${r.priority ?? ''}`;

/**
 * Publishes the domain's records as the README says: read with the client's key, PUT to /dev/dns-records. They must
 * be the records the page shows, since that is where a person copies them from.
 */
async function publishAsReadme(ctx: BrowserContext, key: string, id: number): Promise<number> {
  const read = await callAs(ctx, key, 'GET', `/client/domains/${id}`);
  const records = (read.json?.data?.records ?? []) as DnsRow[];
  const shown = (await shownRecords(ctx)).map(recordKey).sort();
  const listed = records.map(recordKey).sort();
  if (JSON.stringify(shown) !== JSON.stringify(listed))
    ctx.problems.push(`the page shows the records ${JSON.stringify(shown)}, the API lists ${JSON.stringify(listed)}`);
  const published = await fetch(`${ctx.baseUrl}/dev/dns-records`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ records }),
  });
  if (published.status !== 200) throw new Error(`PUT /dev/dns-records answered ${published.status}`);
  return records.length;
}

const statusOf = async (ctx: BrowserContext): Promise<string> =>
  (await ctx.page.evaluate(`document.getElementById('dm-state-title')?.textContent ?? ''`)) as string;

/**
 * Presses "Check now" and waits for its answer. A check within CHECK_NOW_MIN_SECONDS of the last answers the stored
 * state, so it first waits that long since the last, as a person publishing records by hand would have.
 */
async function checkNow(ctx: BrowserContext, lastCheck: { at: number }): Promise<string> {
  const wait = lastCheck.at + CHECK_NOW_MIN_SECONDS * 1000 + 500 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  // A check clears the last one's words as it starts, so once its answer is in, "Checked: " can only be this one's.
  const answered = ctx.page.waitForResponse(
    (answer) => answer.request().method() === 'POST' && answer.url().endsWith('/verify'),
    { timeout: 15_000 },
  );
  await clickButton(ctx, 'Check now');
  await answered;
  await ctx.page.waitForFunction(
    `[...document.querySelectorAll('.success')].some((p) => p.textContent.startsWith('Checked: '))`,
    { timeout: 15_000 },
  );
  lastCheck.at = Date.now();
  return statusOf(ctx);
}

/**
 * A new client's first steps, as its owner takes them: a brand-new client (no domain, so in the sandbox) signs in by
 * the e-mail link and the overview explains the sandbox; a domain added on Domains with the keyboard shows its
 * ownership record; the records shown are published through the local DNS route as the README does, "Check now" is
 * pressed until the domain is verified, the sandbox note leaves the overview, Settings' From offers the domain and is
 * set at it, and the first lifecycle e-mail goes to a customer (not a dashboard user) From it — exactly one.
 */
export const newClientDomainJourney: Journey = {
  name: 'new-client-domain',
  async run(demo: BrowserContext) {
    const { problems } = demo;
    // Made as the operator's admin CLI makes a client: its owner is a dashboard user, its key shown once.
    const client = await createClient(clientAdminDeps(), OWNER);
    const session = await demo.page.browser().createBrowserContext();
    const page = await session.newPage();
    await page.setViewport(DESKTOP);
    let signedIn = false;
    watch(page, demo.origin, problems, () => signedIn);
    const ctx: BrowserContext = { ...demo, page, apiKey: client.api_key };
    try {
      await signIn(ctx, OWNER.email);
      signedIn = true;

      // The overview says the sandbox: the onboarding sender, to the dashboard users only, and where to leave it.
      const before = await sandboxNote(ctx);
      if (!before) problems.push('a new client without a domain sees no sandbox note on the overview');
      else if (!before.includes('only to your') || !before.includes('Add and verify your domain'))
        problems.push(`the overview's sandbox note reads "${before}"`);
      await screenshot(page, 'dashboard-new-client-domain-sandbox.png', ctx.shots);

      // Domains: none yet, the sandbox explained; checked as every page is.
      await openFromNav(ctx, 'Domains', 'Domains');
      await page.waitForSelector('#dm-list-title', { visible: true, timeout: 10_000 });
      const empty = (await page.$eval('#dm-list-title', (el) => el.parentElement?.textContent ?? '')) as string;
      if (!empty.includes('No domain yet') || !empty.includes('sandbox'))
        problems.push(`a new client's Domains page reads "${empty}"`);
      await inspectPage(ctx, 'new-client-domains', '#dm-domain');

      // Added with the keyboard: its page, the ownership record alone.
      await page.focus('#dm-domain');
      await page.keyboard.type(DOMAIN);
      await page.keyboard.press('Enter');
      await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(DOMAIN)}`, {
        timeout: 10_000,
      });
      const id = Number(new URL(page.url()).pathname.match(/^\/app\/domain\/(\d+)$/)?.[1]);
      if (!id) throw new Error(`the new domain opened ${page.url()}`);
      const first = await shownRecords(ctx);
      if (first.length !== 1 || first[0]?.type !== 'TXT' || !first[0]?.name.startsWith('_els-challenge.'))
        problems.push(`a new domain shows the records ${JSON.stringify(first)}, not its ownership TXT alone`);

      // Published, checked: ownership proven and the DKIM records shown; published again, checked until verified.
      const lastCheck = { at: 0 };
      await publishAsReadme(ctx, client.api_key, id);
      let status = await checkNow(ctx, lastCheck);
      if (status !== 'Status: Verifying') problems.push(`after the ownership record, the domain reads "${status}"`);
      const all = await publishAsReadme(ctx, client.api_key, id);
      if (all < 4) problems.push(`a proven domain lists ${all} records (its ownership and three DKIM at least)`);
      const until = Date.now() + 60_000;
      do status = await checkNow(ctx, lastCheck);
      while (status !== 'Status: Verified' && Date.now() < until);
      if (status !== 'Status: Verified') throw new Error(`the new client's domain never became verified: "${status}"`);
      await screenshot(page, 'dashboard-new-client-domain-verified.png', ctx.shots);

      // Out of the sandbox: the overview no longer shows its note.
      await openFromNav(ctx, 'Overview', 'Overview');
      const after = await sandboxNote(ctx);
      if (after) problems.push(`with its domain verified the overview still says "${after}"`);

      // The From, at the domain the field offers.
      await openFromNav(ctx, 'Settings', 'Settings');
      await page.waitForSelector('#st-email_from_domain', { visible: true, timeout: 10_000 });
      const offered = (await page.$$eval('#st-email_from_domain option', (options) =>
        options.map((o) => (o as unknown as { value: string }).value),
      )) as string[];
      if (!offered.includes(DOMAIN)) problems.push(`Settings' From offers ${JSON.stringify(offered)}, not ${DOMAIN}`);
      await retype(ctx, '#st-email_from_address', 'hello');
      await page.select('#st-email_from_domain', DOMAIN);
      await clickButton(ctx, 'Save settings');
      await page.waitForFunction(
        `document.querySelector('.form-actions .success')?.textContent === 'Settings saved.'`,
        { timeout: 10_000 },
      );
      const saved = await callAs(ctx, client.api_key, 'GET', '/client/settings');
      const sending = saved.json?.data?.sending;
      if (sending?.from_address !== FROM || sending?.sandbox !== false)
        problems.push(`after the save the API has the sending ${JSON.stringify(sending)}`);
      await page.evaluate(`document.getElementById('st-email_from_domain').scrollIntoView({ block: 'center' })`);
      await screenshot(page, 'dashboard-new-client-domain-from.png', ctx.shots);

      // The first lifecycle e-mail, to a customer: one, From the new domain.
      const sent = await callAs(ctx, client.api_key, 'POST', '/client/events?sync=true', {
        type: 'signup',
        email: CONTACT,
        auto_create_contact: true,
      });
      if (sent.status !== 201)
        throw new Error(`POST /client/events answered ${sent.status}: ${JSON.stringify(sent.json)}`);
      const toContact = async () =>
        (await sesStore(ctx)).filter((m) => m.destination.to.some((address) => address.includes(CONTACT)));
      await waitFor(`the e-mail to ${CONTACT} in the SES store`, async () =>
        (await toContact()).length ? true : null,
      );
      // A second copy (a redelivery) would land moments after the first: look again once it has had the time.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const mails = await toContact();
      if (mails.length !== 1) problems.push(`the SES store has ${mails.length} e-mails to ${CONTACT}, not one`);
      if (!mails.every((m) => m.from.includes(FROM)))
        problems.push(`the e-mail to ${CONTACT} went From ${JSON.stringify(mails.map((m) => m.from))}, not ${FROM}`);
    } finally {
      await session.close();
    }
  },
};

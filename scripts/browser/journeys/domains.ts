import {
  type BrowserContext,
  type Journey,
  callApi,
  inspectPage,
  openFromNav,
  runAxe,
  screenshot,
  waitFor,
} from '../harness.js';
import { clickButton, retype } from './settings.js';

/** A domain of the browser check's own: nobody else claims it on a fresh runtime. */
const DOMAIN = 'browser-check.example';
const FROM = `hello@${DOMAIN}`;
/** A domain's "Check now" answers the stored state within this long of the last check (CHECK_NOW_MIN_SECONDS). */
const CHECK_AGAIN_MS = 10_500;

/** The domain page's status heading, e.g. "Status: Verifying". */
const statusOf = async (ctx: BrowserContext): Promise<string> =>
  (await ctx.page.evaluate(`document.getElementById('dm-state-title')?.textContent ?? ''`)) as string;

/** Presses "Check now" once it can be pressed, and waits for the check to end. */
async function checkNow(ctx: BrowserContext): Promise<string> {
  await clickButton(ctx, 'Check now');
  await ctx.page.waitForFunction(
    `[...document.querySelectorAll('button')].some((b) => b.textContent === 'Check now' && !b.disabled)`,
    { timeout: 15_000 },
  );
  return statusOf(ctx);
}

/** Publishes the records the page shows to the local runtime's DNS, with its own button. */
async function publishLocally(ctx: BrowserContext): Promise<void> {
  const { page } = ctx;
  await page.waitForSelector('#dm-local-title', { visible: true, timeout: 10_000 });
  await clickButton(ctx, 'Publish these records to the local DNS');
  await page.waitForFunction(
    `[...document.querySelectorAll('.success')].some((p) => p.textContent.includes('published to the local DNS'))`,
    { timeout: 10_000 },
  );
}

/**
 * Domains: a domain another holder already has is refused at the field (409); a new one added with the keyboard opens
 * on its own page with its ownership record; its records are published to the local runtime's DNS from the page's
 * "Local runtime" card and "Check now" is pressed until SES (the local registry) verifies it, the DKIM records published
 * once they show; the From is then set at it under Settings (local part and domain), an event goes out From it, and the
 * domain is deleted from its danger zone, which says where the From falls back.
 */
export const domainsJourney: Journey = {
  name: 'domains',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'Domains', 'Domains');
    await page.waitForSelector('#dm-domain', { visible: true, timeout: 10_000 });
    const before = await callApi(ctx, 'GET', '/client/domains');
    const held = ((before.json?.data?.domains ?? []) as { domain: string }[]).map((d) => d.domain);

    // The client's own domain again: refused at the field.
    if (held[0]) {
      await retype(ctx, '#dm-domain', held[0]);
      ctx.expectRefusal(409, '/client/domains');
      await clickButton(ctx, 'Add domain');
      await page.waitForSelector('#dm-domain[aria-invalid="true"]', { timeout: 10_000 });
      const error = (await page.evaluate(`document.getElementById('dm-domain-error')?.textContent ?? ''`)) as string;
      if (!error.includes(held[0])) problems.push(`adding ${held[0]} again reads "${error}" at the field`);
      ctx.axe['domains-error'] = await runAxe(page, 'domains with a field error', problems);
    }
    await page.waitForSelector('#dm-table', { visible: true, timeout: 10_000 });
    await inspectPage(ctx, 'domains', '#dm-table');

    // Add it with the keyboard: its page, the ownership record first.
    await page.waitForSelector('#dm-domain', { visible: true, timeout: 10_000 });
    await retype(ctx, '#dm-domain', DOMAIN.toUpperCase());
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(DOMAIN)}`, {
      timeout: 10_000,
    });
    if (!/^\/app\/domain\/\d+$/.test(new URL(page.url()).pathname))
      problems.push(`the new domain opened ${page.url()}`);
    const first = (await page.$$eval('#dm-records tbody tr', (rows) =>
      rows.map((row) => row.querySelector('th')?.textContent ?? ''),
    )) as string[];
    if (first.length !== 1 || !first[0]?.startsWith('Ownership'))
      problems.push(`a new domain shows the records ${JSON.stringify(first)}, not its ownership record alone`);

    // Publish, check: ownership proven, the DKIM records show; publish them, check until verified.
    await publishLocally(ctx);
    let status = await checkNow(ctx);
    if (status !== 'Status: Verifying') problems.push(`after the ownership record, the domain reads "${status}"`);
    await publishLocally(ctx);
    const until = Date.now() + 60_000;
    while (status !== 'Status: Verified' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, CHECK_AGAIN_MS));
      status = await checkNow(ctx);
    }
    if (status !== 'Status: Verified') throw new Error(`the domain never became verified: "${status}"`);
    const rows = (await page.$$eval('#dm-records tbody tr', (all) => all.length)) as number;
    if (rows < 4) problems.push(`a verified domain lists ${rows} records (its ownership and three DKIM at least)`);
    await inspectPage(ctx, 'domain', '#dm-records');

    // The From at it, chosen under Settings.
    await openFromNav(ctx, 'Settings', 'Settings');
    await page.waitForSelector('#st-email_from_domain', { visible: true, timeout: 10_000 });
    await retype(ctx, '#st-email_from_address', 'hello');
    await page.select('#st-email_from_domain', DOMAIN);
    await clickButton(ctx, 'Save settings');
    await page.waitForFunction(`document.querySelector('.form-actions .success')?.textContent === 'Settings saved.'`, {
      timeout: 10_000,
    });
    const saved = await callApi(ctx, 'GET', '/client/settings');
    if (saved.json?.data?.email_from_address !== FROM || saved.json?.data?.sending?.from_address !== FROM)
      problems.push(`after the save the API has the From ${JSON.stringify(saved.json?.data?.sending)}`);
    await page.evaluate(`document.getElementById('st-email_from_domain').scrollIntoView({ block: 'center' })`);
    ctx.axe['settings-from'] = await runAxe(page, 'settings with the From', problems);
    await screenshot(page, 'dashboard-settings-from.png', ctx.shots);

    // An e-mail goes out From it.
    const to = 'domain-journey@example.com';
    const sent = await callApi(ctx, 'POST', '/client/events?sync=true', {
      type: 'signup',
      email: to,
      auto_create_contact: true,
    });
    if (sent.status !== 201)
      throw new Error(`POST /client/events answered ${sent.status}: ${JSON.stringify(sent.json)}`);
    const from = await waitFor(`the e-mail to ${to} in the SES store`, async () => {
      const store = (await (await fetch(`${ctx.sesUrl}/store`)).json()) as {
        emails: { from: string; destination: { to: string[] } }[];
      };
      return store.emails.find((m) => m.destination.to.some((address) => address.includes(to)))?.from;
    });
    if (!from.includes(FROM)) problems.push(`the e-mail to ${to} went From "${from}", not ${FROM}`);

    // Deleted from its danger zone: the page says where the From falls back.
    const listed = await callApi(ctx, 'GET', '/client/domains');
    const domain = ((listed.json?.data?.domains ?? []) as { id: number; domain: string }[]).find(
      (d) => d.domain === DOMAIN,
    );
    if (!domain) throw new Error(`the API does not list ${DOMAIN}`);
    await openFromNav(ctx, 'Domains', 'Domains');
    await page.waitForSelector(`a[href="/app/domain/${domain.id}"]`, { visible: true, timeout: 10_000 });
    await page.click(`a[href="/app/domain/${domain.id}"]`);
    await page.waitForSelector('#dm-delete-title', { visible: true, timeout: 10_000 });
    await clickButton(ctx, `Delete ${DOMAIN}`);
    await clickButton(ctx, 'Yes, delete');
    await page.waitForFunction(`document.querySelector('main')?.textContent.includes('is deleted')`, {
      timeout: 15_000,
    });
    const notice = (await page.$eval('main', (el) => el.textContent ?? '')) as string;
    if (!notice.includes(FROM)) problems.push(`the deletion does not say the From ${FROM} falls back: "${notice}"`);
    const after = await callApi(ctx, 'GET', '/client/domains');
    if (((after.json?.data?.domains ?? []) as { domain: string }[]).some((d) => d.domain === DOMAIN))
      problems.push(`after the deletion the API still lists ${DOMAIN}`);
    // The settings keep the other journeys' From as it was.
    await callApi(ctx, 'PATCH', '/client/settings', { email_from_address: null });
  },
};

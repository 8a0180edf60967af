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

const NAME = 'Cart reminder';
const EDITOR = '#jy-draft';

/** The issue's cart journey: on cart_abandoned (one run per cart_id), wait 4 h for its checkout, else remind. */
export const CART_JOURNEY = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

/** Replaces the text area's text as a paste does: everything selected, then the text inserted (one input event). */
async function paste(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  await ctx.page.focus(selector);
  await ctx.page.evaluate(
    `(() => { const t = document.querySelector(${JSON.stringify(selector)}); t.select(); document.execCommand('insertText', false, ${JSON.stringify(text)}); })()`,
  );
}

/** Waits for a polite status (a `.success`) saying `words`. */
const waitForSaid = (ctx: BrowserContext, words: string) =>
  ctx.page.waitForFunction(
    `[...document.querySelectorAll('.success')].some((s) => s.textContent.includes(${JSON.stringify(words)}))`,
    { timeout: 15_000 },
  );

/**
 * Journeys: the list from the navigation; a new journey created by its name with the keyboard opens its page; the cart
 * journey pasted as JSON with a wrong entry step saves with its issue listed at its path, the issue's button selecting
 * that member in the text; fixed, saved, validated and published (confirmed), the page and the API say it is live on
 * version 1, and the list shows it live; two carts abandoned then show on its first step's counts.
 */
export const journeyEditorJourney: Journey = {
  name: 'journeys',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'Journeys', 'Journeys');
    await page.waitForSelector('#jy-system-table', { visible: true, timeout: 10_000 });
    const systemRows = (await page.$$eval('#jy-system-table tbody tr', (rows) => rows.length)) as number;
    if (systemRows !== 8) problems.push(`the journeys page lists ${systemRows} system journeys, not 8`);
    await inspectPage(ctx, 'journeys', '#jy-system-table');

    // A new journey by its name, with the keyboard: its page opens.
    await retype(ctx, '#jy-new-name', NAME);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(NAME)}`, {
      timeout: 10_000,
    });
    const id = new URL(page.url()).pathname.match(/^\/app\/journey\/(\d+)$/)?.[1];
    if (!id) throw new Error(`the new journey opened ${page.url()}`);
    await page.waitForSelector(EDITOR, { visible: true, timeout: 10_000 });

    // Pasted with an entry step that does not exist: saved, with the issue at its path.
    await paste(ctx, EDITOR, JSON.stringify({ ...CART_JOURNEY, entry: 'wait_for_checkout' }, null, 2));
    await clickButton(ctx, 'Save draft');
    await waitForSaid(ctx, 'Draft saved with');
    const issues = (await page.$$eval('.issue-list li', (items) =>
      items.map((item) => item.textContent ?? ''),
    )) as string[];
    if (!issues.some((issue) => issue.startsWith('entry')))
      problems.push(`the wrong entry step's issue is not listed at "entry": ${JSON.stringify(issues)}`);
    await clickButton(ctx, 'Show entry in the JSON');
    const selected = (await page.evaluate(
      `(() => { const t = document.querySelector(${JSON.stringify(EDITOR)}); return document.activeElement === t ? t.value.slice(t.selectionStart, t.selectionEnd) : null; })()`,
    )) as string | null;
    if (selected !== '"entry": "wait_for_checkout"')
      problems.push(`the issue's button selected ${JSON.stringify(selected)} in the JSON, not the entry member`);
    ctx.axe['journey-issues'] = await runAxe(page, 'journey with an issue', problems);
    await screenshot(page, 'dashboard-journey-issues.png', ctx.shots);

    // Fixed, saved, validated and published.
    await paste(ctx, EDITOR, JSON.stringify(CART_JOURNEY, null, 2));
    await clickButton(ctx, 'Save draft');
    await waitForSaid(ctx, 'Draft saved. No issue found');
    await clickButton(ctx, 'Validate');
    await waitForSaid(ctx, 'The draft is valid');
    await clickButton(ctx, 'Publish as version 1');
    await clickButton(ctx, 'Yes, publish');
    await waitForSaid(ctx, 'Version 1 is live');
    await page.waitForFunction(`document.querySelector('.page-head .badge')?.textContent === 'Live'`, {
      timeout: 10_000,
    });
    const live = await callApi(ctx, 'GET', `/client/journeys/${id}`);
    if (live.json?.data?.status !== 'live' || live.json?.data?.live_version !== 1)
      problems.push(
        `after publishing, the API has the journey ${JSON.stringify(live.json?.data?.status)} v${live.json?.data?.live_version}`,
      );
    const steps = (await page.$$eval(
      'section[aria-labelledby="jy-draft-outline-title"] ol.step-outline > li .step-head code',
      (codes) => codes.map((code) => code.textContent ?? ''),
    )) as string[];
    if (steps.join(',') !== 'wait_checkout,remind')
      problems.push(`the outline lists the steps ${JSON.stringify(steps)}`);
    // The draft as the API keeps it, read again after the publish: its members in reading order.
    const text = (await page.$eval(EDITOR, (t) => (t as unknown as { value: string }).value)) as string;
    if (text !== `${JSON.stringify(CART_JOURNEY, null, 2)}\n`)
      problems.push(
        `after the publish the draft reads ${JSON.stringify(text.slice(0, 120))}…, not the journey as pasted`,
      );
    await page.waitForSelector('#jy-versions', { visible: true, timeout: 10_000 });
    await page.$eval(EDITOR, (t) => {
      (t as unknown as { scrollTop: number }).scrollTop = 0;
    });
    await inspectPage(ctx, 'journey', '#jy-versions');

    // The list shows it live, on version 1.
    await openFromNav(ctx, 'Journeys', 'Journeys');
    const row = await waitFor('the journey live in the list', async () => {
      const cells = (await page.evaluate(
        `(() => { const a = document.querySelector('#jy-own-table a[href="/app/journey/${id}"]'); return a ? [...a.closest('tr').children].map((c) => c.textContent) : null; })()`,
      )) as string[] | null;
      return cells?.[1] === 'Live' ? cells : undefined;
    });
    if (row[2] !== '1') problems.push(`the journeys list shows live version "${row[2]}"`);

    // Two carts abandoned: their runs wait at the first step, and the page's outline counts them there.
    for (const cart of ['A', 'B']) {
      const sent = await callApi(ctx, 'POST', '/client/events?sync=true', {
        type: 'cart_abandoned',
        email: 'cart-shopper@example.com',
        auto_create_contact: true,
        cart_id: cart,
      });
      if (sent.status !== 201) problems.push(`the cart_abandoned event answered ${sent.status}`);
    }
    await waitFor('the stats to count two runs waiting', async () => {
      const stats = await callApi(ctx, 'GET', `/client/journeys/${id}/stats`);
      const first = (stats.json?.data?.steps ?? []).find((s: { step_id: string }) => s.step_id === 'wait_checkout');
      return first?.waiting === 2 ? first : undefined;
    });
    await page.click(`#jy-own-table a[href="/app/journey/${id}"]`);
    const counted = await waitFor('the outline to show the counts', async () => {
      const text = (await page.evaluate(
        `document.querySelector('section[aria-labelledby="jy-draft-outline-title"] ol.step-outline > li .step-counts')?.textContent ?? null`,
      )) as string | null;
      return text ?? undefined;
    });
    if (!counted.startsWith('2 here now · 2 entered'))
      problems.push(`the first step's counts read ${JSON.stringify(counted)}`);
    await screenshot(page, 'dashboard-journey-counts.png', ctx.shots);
  },
};

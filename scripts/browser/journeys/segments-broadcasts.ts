import { type BrowserContext, type Journey, callApi, inspectPage, openFromNav, waitFor } from '../harness.js';

const SEGMENT = 'Pro plan';
/** The contacts set up through the API: two on the pro plan (the segment's members), one not. */
const PRO = ['pro-ann@example.com', 'pro-bob@example.com'];
const FREE = 'free-cat@example.com';

const DEFINITION = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};

/** Types into a field with the keyboard: its text selected (Ctrl+A), then the new text typed over it. */
async function typeInto(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  const { page } = ctx;
  await page.waitForSelector(selector, { visible: true, timeout: 10_000 });
  await page.focus(selector);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

/** Presses a button with the keyboard (focused, then Enter), once the page shows it. */
async function pressButton(ctx: BrowserContext, name: string): Promise<void> {
  const find = `[...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') || b.textContent.trim()) === ${JSON.stringify(name)} && !b.disabled)`;
  await ctx.page.waitForFunction(`Boolean(${find})`, { timeout: 10_000 }).catch(() => {
    throw new Error(`no button "${name}"`);
  });
  await ctx.page.evaluate(`${find}.focus()`);
  await ctx.page.keyboard.press('Enter');
}

/** Waits for an element's text to match (a regular expression's source), ≤ `ms`. */
const waitForText = (ctx: BrowserContext, selector: string, pattern: string, ms = 15_000) =>
  ctx.page
    .waitForFunction(
      `new RegExp(${JSON.stringify(pattern)}).test(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '')`,
      { timeout: ms },
    )
    .catch(async () => {
      const shown = (await ctx.page.evaluate(
        `document.querySelector(${JSON.stringify(selector)})?.textContent ?? '(absent)'`,
      )) as string;
      throw new Error(`${selector} never said /${pattern}/: it says "${shown}"`);
    });

/**
 * Segments: a segment "custom field plan = pro" written as JSON by keyboard, its live count (the two pro contacts of
 * three), its page once its backfill is done, and its members from the Members tab, reached with the arrow key.
 */
export const segmentsJourney: Journey = {
  name: 'segments',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    for (const email of [...PRO, FREE]) {
      const plan = email === FREE ? 'free' : 'pro';
      const made = await callApi(ctx, 'POST', '/client/contacts', { email, custom_fields: { plan } });
      if (made.status !== 201)
        throw new Error(`POST /client/contacts answered ${made.status}: ${JSON.stringify(made.json)}`);
    }

    // The segment, by keyboard: its name, its conditions as JSON, the live count, Create.
    await openFromNav(ctx, 'Segments', 'Segments');
    await typeInto(ctx, '#sg-new-name', SEGMENT);
    await typeInto(ctx, '#sg-new-definition', JSON.stringify(DEFINITION, null, 1));
    await waitForText(ctx, '#sg-new-definition-count', '^2 contacts match now\\.$');
    await pressButton(ctx, 'Create segment');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(SEGMENT)}`, {
      timeout: 10_000,
    });
    const segmentId = Number(page.url().split('/').at(-1));
    await waitForText(ctx, '.page-head .badge', '^ready$', 20_000);
    await waitForText(ctx, '#sg-definition-count', '^2 contacts match now\\.$');
    // Ready once counted (not busy), so the screenshots show the count.
    await inspectPage(ctx, 'segment', '#sg-definition-count[aria-busy="false"]');

    // Its members: the Members tab by the arrow key, the two pro contacts.
    await page.focus('#sg-tab-conditions');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#sg-members-table', { visible: true, timeout: 10_000 }).catch(async () => {
      const shown = (await page.evaluate(
        `document.getElementById('sg-panel-members')?.textContent ?? document.querySelector('main')?.textContent`,
      )) as string;
      throw new Error(`the Members tab shows no table: "${shown}"`);
    });
    const members = await waitFor('the two members listed', async () => {
      const rows = (await page.$$eval('#sg-members-table tbody tr', (trs) =>
        trs.map((tr) => (tr as unknown as { textContent: string }).textContent),
      )) as string[];
      return rows.length === 2 ? rows : undefined;
    });
    for (const email of PRO)
      if (!members.some((row) => row.includes(email))) problems.push(`the members table does not list ${email}`);
    await inspectPage(ctx, 'segment-members', '#sg-members-table');
    const stored = await callApi(ctx, 'GET', `/client/segments/${segmentId}`);
    if (stored.json?.data?.status !== 'ready' || stored.json?.data?.count !== 2)
      problems.push(
        `the API says segment ${segmentId} is ${stored.json?.data?.status} with ${stored.json?.data?.count}`,
      );
  },
};

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

/** Waits for a polite status (a `.success`) saying `words`. */
const waitForSaid = (ctx: BrowserContext, words: string) =>
  ctx.page.waitForFunction(
    `[...document.querySelectorAll('.success')].some((s) => s.textContent.includes(${JSON.stringify(words)}))`,
    { timeout: 15_000 },
  );

/** The focused element's id (evaluated in the page: this project compiles scripts without the DOM library). */
const focusedId = (ctx: BrowserContext) =>
  ctx.page.evaluate('document.activeElement ? document.activeElement.id : null') as Promise<string | null>;

/** Moves the focus to a control, as Tab would land on it. */
const focus = (ctx: BrowserContext, selector: string) => ctx.page.focus(selector);

/** Types into a text field with the keyboard: its text selected (Ctrl+A), then the new text typed over it. */
async function typeInto(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  const { page } = ctx;
  await page.waitForSelector(selector, { visible: true, timeout: 10_000 });
  await focus(ctx, selector);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

/** Chooses an option of a select with the arrow keys (a closed select changes at each arrow), by its value. */
async function chooseOption(ctx: BrowserContext, selector: string, value: string): Promise<void> {
  const { page } = ctx;
  await page.waitForSelector(selector, { visible: true, timeout: 10_000 });
  const at = (await page.$eval(
    selector,
    (element, wanted) => {
      const select = element as unknown as { selectedIndex: number; options: { value: string }[] };
      return {
        now: select.selectedIndex,
        to: Array.from(select.options).findIndex((option) => option.value === wanted),
      };
    },
    value,
  )) as { now: number; to: number };
  if (at.to < 0) throw new Error(`${selector} offers no option "${value}"`);
  await focus(ctx, selector);
  for (let moves = Math.abs(at.to - at.now); moves > 0; moves -= 1) {
    await page.keyboard.press(at.to > at.now ? 'ArrowDown' : 'ArrowUp');
  }
  const chosen = (await page.$eval(selector, (element) => (element as unknown as { value: string }).value)) as string;
  if (chosen !== value) throw new Error(`the arrow keys left ${selector} on "${chosen}", not "${value}"`);
}

/** Presses a button with the keyboard (focused, then Enter), found by its text or aria-label once shown (≤ 10 s). */
async function pressButton(ctx: BrowserContext, name: string): Promise<void> {
  const find = `[...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') || b.textContent.trim()) === ${JSON.stringify(name)} && !b.disabled && b.getClientRects().length > 0)`;
  await ctx.page.waitForFunction(`Boolean(${find})`, { timeout: 10_000 }).catch(() => {
    throw new Error(`no button "${name}"`);
  });
  await ctx.page.evaluate(`${find}.focus()`);
  await ctx.page.keyboard.press('Enter');
}

/** Waits for the step panel's heading to say `words` (and returns whether the focus is on it). */
async function panelSays(ctx: BrowserContext, words: string): Promise<boolean> {
  await ctx.page.waitForFunction(
    `document.getElementById('jy-panel-title')?.textContent.includes(${JSON.stringify(words)})`,
    { timeout: 10_000 },
  );
  return (await focusedId(ctx)) === 'jy-panel-title';
}

/** Escape in the panel: it closes and the focus goes back to the box it was opened from. */
async function closePanel(ctx: BrowserContext, box: string): Promise<void> {
  await ctx.page.keyboard.press('Escape');
  await ctx.page.waitForFunction(`!document.getElementById('jy-panel-title')`, { timeout: 10_000 });
  const back = await ctx.page
    .waitForFunction(`document.activeElement?.id === ${JSON.stringify(box)}`, { timeout: 5_000 })
    .then(() => box)
    .catch(() => focusedId(ctx));
  if (back !== box) {
    const where = await ctx.page.evaluate(
      'document.activeElement ? document.activeElement.outerHTML.slice(0, 80) : null',
    );
    ctx.problems.push(`Escape closed the panel of #${box} but the focus went to ${JSON.stringify(where)}`);
  }
}

/** Members in a fixed order, so two definitions compare by their values only. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;

/**
 * Journeys: the list from the navigation; a new journey created by its name with the keyboard opens on its drawn
 * flow; the cart journey is BUILT there with the keyboard and the step panel's forms (the trigger's event, key and
 * re-entry; a wait for an event added before the first step, renamed, its event, key match, timeout and ways; the
 * send step renamed), moving between the drawing's steps with the arrow keys, Enter opening a step's panel and Escape
 * giving the focus back. Saved while the template is still unchosen, the API's issue shows on the step's box and at
 * its field; chosen, saved, validated and published (confirmed): the API has exactly the cart journey, live on
 * version 1, and the JSON view shows the same draft; the list shows it live. Two carts abandoned then show on the
 * drawing's first step ("2 here now · 2 entered"); axe and the screenshots at 1280 and 375 px.
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

    // A new journey by its name, with the keyboard: its page opens on the drawn flow.
    await retype(ctx, '#jy-new-name', NAME);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(NAME)}`, {
      timeout: 10_000,
    });
    const id = new URL(page.url()).pathname.match(/^\/app\/journey\/(\d+)$/)?.[1];
    if (!id) throw new Error(`the new journey opened ${page.url()}`);
    await page.waitForSelector('#jy-flow-trigger', { visible: true, timeout: 10_000 });

    // The trigger: Enter on its box opens its panel, the focus on the panel's heading.
    await focus(ctx, '#jy-flow-trigger');
    await page.keyboard.press('Enter');
    if (!(await panelSays(ctx, 'Trigger'))) problems.push('opening the trigger did not move the focus to its panel');
    await typeInto(ctx, '#jy-panel-trigger-event', 'cart_abandoned');
    await typeInto(ctx, '#jy-panel-trigger-key', 'cart_id');
    await chooseOption(ctx, '#jy-panel-trigger-reentry-mode', 'always');

    // A wait for the checkout before the first step, from the trigger's panel; the panel moves to it.
    await chooseOption(ctx, '#jy-panel-add-kind', 'wait_for_event');
    await pressButton(ctx, 'Add a step first');
    await panelSays(ctx, 'wait_for_event_1');
    await typeInto(ctx, '#jy-panel-steps-0-id', 'wait_checkout');
    await page.keyboard.press('Tab');
    await panelSays(ctx, 'wait_checkout');
    await typeInto(ctx, '#jy-panel-steps-0-event', 'checkout_completed');
    await focus(ctx, '#jy-panel-steps-0-match_key');
    await page.keyboard.press('Space');
    await typeInto(ctx, '#jy-panel-steps-0-timeout_minutes', '4');
    await chooseOption(ctx, '#jy-panel-steps-0-timeout_minutes-unit', '60');
    await chooseOption(ctx, '#jy-panel-steps-0-on_event', '');
    const onTimeout = (await page.$eval(
      '#jy-panel-steps-0-on_timeout',
      (s) => (s as unknown as { value: string }).value,
    )) as string;
    if (onTimeout !== 'send_1')
      problems.push(`the new wait's timeout leads to "${onTimeout}", not the step it was added before`);
    await closePanel(ctx, 'jy-flow-step-0');

    // The drawing: the wait's two ways side by side, the run's end beside the send step.
    const row = (await page.evaluate(`(() => {
      const place = (id) => { const box = document.getElementById(id)?.parentElement; return box ? [box.style.getPropertyValue('--row'), box.style.getPropertyValue('--lane')] : null; };
      return { end: place('jy-flow-step-0-end-0'), send: place('jy-flow-step-1') };
    })()`)) as { end: string[] | null; send: string[] | null };
    if (!row.end || !row.send || row.end[0] !== row.send[0] || row.end[1] === row.send[1])
      problems.push(`the wait's two ways are not side by side: ${JSON.stringify(row)}`);

    // Down the drawing with the arrow keys to the send step, Enter opens it.
    for (let moves = 0; moves < 6 && (await focusedId(ctx)) !== 'jy-flow-step-1'; moves += 1) {
      await page.keyboard.press('ArrowDown');
    }
    if ((await focusedId(ctx)) !== 'jy-flow-step-1') throw new Error('the arrow keys never reached the send step');
    await page.keyboard.press('Enter');
    if (!(await panelSays(ctx, 'send_1'))) problems.push('opening the send step did not move the focus to its panel');
    await typeInto(ctx, '#jy-panel-steps-1-id', 'remind');
    await page.keyboard.press('Tab');
    await panelSays(ctx, 'remind');
    await closePanel(ctx, 'jy-flow-step-1');

    // Saved with the template still to choose: the API's issue shows on the step's box and at its field.
    await pressButton(ctx, 'Save draft');
    await waitForSaid(ctx, 'Draft saved with');
    const boxIssues = (await page.$eval(
      '#jy-flow-step-1',
      (b) => b.querySelector('.flow-issues')?.textContent ?? '',
    )) as string;
    if (!/issue/.test(boxIssues)) problems.push(`the send step's box shows no issue after saving without a template`);
    await focus(ctx, '#jy-flow-step-1');
    await page.keyboard.press('Enter');
    await panelSays(ctx, 'remind');
    const invalid = (await page.$eval('#jy-panel-steps-1-template_id', (s) => s.getAttribute('aria-invalid'))) as
      | string
      | null;
    if (invalid !== 'true') problems.push('the template field does not show the API’s issue (aria-invalid)');
    ctx.axe['journey-issues'] = await runAxe(page, 'journey with an issue', problems);
    await screenshot(page, 'dashboard-journey-issues.png', ctx.shots);
    await chooseOption(ctx, '#jy-panel-steps-1-template_id', '1');
    await closePanel(ctx, 'jy-flow-step-1');

    // Saved, validated and published.
    await pressButton(ctx, 'Save draft');
    await waitForSaid(ctx, 'Draft saved. No issue found');
    await pressButton(ctx, 'Validate');
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
    if (JSON.stringify(canonical(live.json?.data?.live)) !== JSON.stringify(canonical(CART_JOURNEY)))
      problems.push(
        `the journey built in the editor is not the cart journey: ${JSON.stringify(live.json?.data?.live)}`,
      );

    // The JSON view holds the same draft, its members in reading order.
    await page.waitForSelector('#jy-tab-flow', { visible: true, timeout: 10_000 });
    await focus(ctx, '#jy-tab-flow');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#jy-draft', { visible: true, timeout: 10_000 });
    const text = (await page.$eval('#jy-draft', (t) => (t as unknown as { value: string }).value)) as string;
    if (text !== `${JSON.stringify(CART_JOURNEY, null, 2)}\n`)
      problems.push(`the JSON view reads ${JSON.stringify(text.slice(0, 120))}…, not the journey built`);
    const steps = (await page.$$eval(
      'section[aria-labelledby="jy-draft-outline-title"] ol.step-outline > li .step-head code',
      (codes) => codes.map((code) => code.textContent ?? ''),
    )) as string[];
    if (steps.join(',') !== 'wait_checkout,remind')
      problems.push(`the outline lists the steps ${JSON.stringify(steps)}`);
    await page.waitForSelector('#jy-versions', { visible: true, timeout: 10_000 });
    await page.$eval('#jy-draft', (t) => {
      (t as unknown as { scrollTop: number }).scrollTop = 0;
    });
    await inspectPage(ctx, 'journey', '#jy-versions');

    // The list shows it live, on version 1.
    await openFromNav(ctx, 'Journeys', 'Journeys');
    const listed = await waitFor('the journey live in the list', async () => {
      const cells = (await page.evaluate(
        `(() => { const a = document.querySelector('#jy-own-table a[href="/app/journey/${id}"]'); return a ? [...a.closest('tr').children].map((c) => c.textContent) : null; })()`,
      )) as string[] | null;
      return cells?.[1] === 'Live' ? cells : undefined;
    });
    if (listed[2] !== '1') problems.push(`the journeys list shows live version "${listed[2]}"`);

    // Two carts abandoned: their runs wait at the first step, and the drawing counts them there.
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
    const counted = await waitFor('the drawing to show the counts', async () => {
      const text = (await page.evaluate(
        `document.querySelector('#jy-flow-step-0 .flow-counts')?.textContent ?? null`,
      )) as string | null;
      return text ?? undefined;
    });
    if (!counted.startsWith('2 here now · 2 entered'))
      problems.push(`the first step's counts read ${JSON.stringify(counted)}`);
    await screenshot(page, 'dashboard-journey-counts.png', ctx.shots);
    // The drawn flow at 1280 and 375 px: axe, the keyboard walk (the drawing one Tab stop), the screenshots.
    await inspectPage(ctx, 'journey-flow', '#jy-flow-step-0 .flow-counts');
  },
};

import { type BrowserContext, type Journey, callApi, inspectPage, waitFor } from '../harness.js';

/**
 * The overview, for a new client: the empty state teaches the first event with this origin's base URL
 * (and never shows a key); the walk-through's signup event then appears on the chart, every series in its legend.
 */
export const overviewJourney: Journey = {
  name: 'overview',
  async run(ctx: BrowserContext) {
    const { page, origin, problems } = ctx;
    await page.waitForFunction(`document.querySelector('#first-event-title') !== null`, { timeout: 10_000 });
    const curl = (await page.$eval('pre', (el) => el.textContent ?? '')) as string;
    if (!curl.includes(`${origin}/api/v1/client/events`))
      problems.push(`the first curl does not name ${origin}/api/v1: ${curl}`);
    if (curl.includes(ctx.apiKey)) problems.push('the empty state shows the API key');

    const sent = await callApi(ctx, 'POST', '/client/events?sync=true', {
      type: 'signup',
      email: 'ada@example.com',
      auto_create_contact: true,
    });
    if (sent.status !== 201)
      throw new Error(`POST /client/events answered ${sent.status}: ${JSON.stringify(sent.json)}`);
    const today = new Date().toISOString().slice(0, 10);
    await waitFor('the welcome e-mail on the overview chart', async () => {
      await page.click('button.refresh');
      await page.waitForFunction(`document.querySelector('[aria-busy]') === null`, { timeout: 5_000 });
      const row = (await page.evaluate(
        `(() => { const th = [...document.querySelectorAll('tbody th')].find((th) => th.textContent === '${today}'); return th ? [...th.parentElement.children].map((c) => c.textContent) : null; })()`,
      )) as string[] | null;
      return row && Number(row[1]) >= 1 ? row : undefined;
    });
    const canvas = await page.$('[data-testid="stats-chart"] canvas');
    if (!canvas) problems.push('the overview has no chart canvas');
    const legend = (await page.$$eval('.u-legend .u-label', (els) =>
      els.map((el) => el.textContent ?? ''),
    )) as string[];
    for (const series of ['Sent', 'Delivered', 'Human opens', 'Human clicks', 'Bounces', 'Complaints']) {
      if (!legend.includes(series)) problems.push(`the chart has no "${series}" series (legend: ${legend.join(', ')})`);
    }
    // The table behind the chart is in a <details>: open, so axe and the keyboard walk see it.
    await page.click('summary');
    await inspectPage(ctx, 'overview', '[data-testid="stats-chart"] canvas');
  },
};

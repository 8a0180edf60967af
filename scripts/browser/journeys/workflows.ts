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

const DELAY = '#wf-delay_minutes';

/** The text of the element a field names first in its aria-describedby (its error while it has one). */
const describedText = (selector: string) =>
  `(() => { const f = document.querySelector(${JSON.stringify(selector)}); const id = (f.getAttribute('aria-describedby') || '').split(' ')[0]; return document.getElementById(id)?.textContent ?? ''; })()`;

/**
 * Workflows: the list from the navigation, the welcome workflow's page with the funnel of the overview
 * journey's signup (sent ≥ 1), its delay refused out of range (422, shown at the field), then saved and in the
 * history; the delay is then emptied again (back to the default, immediately) so the next journeys' welcome e-mails
 * still go at once.
 */
export const workflowsJourney: Journey = {
  name: 'workflows',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'Workflows', 'Workflows');
    await page.waitForSelector('#wf-workflows-table', { visible: true, timeout: 10_000 });
    const welcomeRow = (await page.evaluate(
      `(() => { const a = document.querySelector('#wf-workflows-table a[href="/app/workflow/1"]'); return a ? [...a.closest('tr').children].map((c) => c.textContent) : null; })()`,
    )) as string[] | null;
    if (!welcomeRow) throw new Error('the workflows table has no link to the welcome workflow');
    if (welcomeRow[2] !== 'signup') problems.push(`the welcome workflow starts on "${welcomeRow[2]}", not signup`);
    await inspectPage(ctx, 'workflows', '#wf-workflows-table');

    // The welcome workflow: the overview journey's signup is in its funnel.
    await page.click('#wf-workflows-table a[href="/app/workflow/1"]');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Welcome'`, { timeout: 10_000 });
    await page.waitForSelector('#wf-funnel', { visible: true, timeout: 10_000 });
    const funnel = (await page.$$eval('#wf-funnel li', (items) =>
      items.map((item) => [
        item.querySelector('.funnel-step-name')?.textContent ?? '',
        Number(item.querySelector('.funnel-step-count')?.textContent),
      ]),
    )) as [string, number][];
    const sent = funnel.find(([name]) => name === 'Sent')?.[1] ?? 0;
    if (sent < 1) problems.push(`the welcome workflow's funnel shows ${sent} sent (${JSON.stringify(funnel)})`);
    if (!(await page.$('[data-testid="stats-chart"] canvas'))) problems.push('the workflow page has no chart canvas');

    // A delay beyond a year: the API refuses it (422) and the page says so at the field.
    await page.waitForSelector(DELAY, { visible: true, timeout: 10_000 });
    await retype(ctx, DELAY, '999999');
    ctx.expectRefusal(422, '/customization');
    await clickButton(ctx, 'Save customization');
    await page.waitForSelector(`${DELAY}[aria-invalid="true"]`, { timeout: 10_000 });
    const shown = (await page.evaluate(describedText(DELAY))) as string;
    if (!/525600/.test(shown)) problems.push(`the delay's field error reads "${shown}"`);
    ctx.axe['workflow-error'] = await runAxe(page, 'workflow with a field error', problems);
    await page.evaluate(`document.querySelector(${JSON.stringify(DELAY)}).scrollIntoView({ block: 'center' })`);
    await screenshot(page, 'dashboard-workflow-error.png', ctx.shots);

    // A valid delay: saved, in the API, and first in the history.
    await retype(ctx, DELAY, '30');
    await clickButton(ctx, 'Save customization');
    await page.waitForFunction(
      `document.querySelector('#wf-customization .success')?.textContent === 'Customization saved.'`,
      {
        timeout: 10_000,
      },
    );
    await page.waitForFunction(
      `document.querySelector('#wf-audit > li')?.textContent.includes('Delay (minutes): default → 30')`,
      { timeout: 10_000 },
    );
    if ((await page.$(`${DELAY}[aria-invalid="true"]`)) !== null)
      problems.push('the delay field is still marked invalid after a save');
    const saved = await callApi(ctx, 'GET', '/client/workflows');
    const welcome = (
      saved.json?.data?.workflows as { id: number; customization: { delay_minutes: number } }[] | undefined
    )?.find((w) => w.id === 1);
    if (welcome?.customization.delay_minutes !== 30)
      problems.push(`after the save the API has the welcome delay ${String(welcome?.customization.delay_minutes)}`);
    // The table behind the chart is in a <details>: open, so axe and the keyboard walk see it.
    await page.click('#wf-stats-table summary');
    await inspectPage(ctx, 'workflow', '#wf-audit');

    // Back to the default (an emptied field is null): the next journeys' welcome e-mails go at once again.
    await page.waitForSelector(DELAY, { visible: true, timeout: 10_000 });
    await waitFor('the saved delay in the form', async () =>
      (await page.$eval(DELAY, (el) => (el as unknown as { value: string }).value)) === '30' ? true : undefined,
    );
    await retype(ctx, DELAY, '');
    await clickButton(ctx, 'Save customization');
    await page.waitForFunction(
      `document.querySelector('#wf-audit > li')?.textContent.includes('Delay (minutes): 30 → default')`,
      { timeout: 10_000 },
    );
    const reset = await callApi(ctx, 'GET', '/client/workflows');
    const back = (
      reset.json?.data?.workflows as
        | { id: number; customization: { overrides: { delay_minutes: number | null } } }[]
        | undefined
    )?.find((w) => w.id === 1);
    if (back?.customization.overrides.delay_minutes !== null)
      problems.push(
        `the welcome delay override is ${String(back?.customization.overrides.delay_minutes)} after emptying it`,
      );
  },
};

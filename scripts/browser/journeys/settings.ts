import {
  type BrowserContext,
  type Journey,
  callApi,
  inspectPage,
  openFromNav,
  runAxe,
  screenshot,
} from '../harness.js';

/** Clears a text field and types into it, as a person does with the keyboard. */
export async function retype(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  await ctx.page.click(selector, { clickCount: 3 });
  await ctx.page.keyboard.press('Backspace');
  await ctx.page.type(selector, text);
}

/** Clicks the first button whose text (or aria-label) is `name`, once the page shows it (≤ 10 s). */
export async function clickButton(ctx: BrowserContext, name: string): Promise<void> {
  const find = `[...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') || b.textContent.trim()) === ${JSON.stringify(name)} && !b.disabled)`;
  await ctx.page.waitForFunction(`Boolean(${find})`, { timeout: 10_000 }).catch(() => {
    throw new Error(`no button "${name}"`);
  });
  await ctx.page.evaluate(`${find}.click()`);
}

/**
 * Settings, one changed and a field error shown: an hour out of range is refused by the API
 * (422) and its error is shown at its field (aria-invalid, aria-describedby); a valid hour is then saved, and the API
 * has it.
 */
export const settingsJourney: Journey = {
  name: 'settings',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    const field = '#st-quiet_hour_start';
    await openFromNav(ctx, 'Settings', 'Settings');
    await page.waitForSelector(field, { visible: true, timeout: 10_000 });

    await retype(ctx, field, '25');
    ctx.expectRefusal(422, '/client/settings');
    await clickButton(ctx, 'Save settings');
    await page.waitForSelector(`${field}[aria-invalid="true"]`, { timeout: 10_000 });
    const shown = (await page.evaluate(
      `(() => { const f = document.querySelector(${JSON.stringify(field)}); const id = f.getAttribute('aria-describedby').split(' ')[0]; return document.getElementById(id)?.textContent ?? ''; })()`,
    )) as string;
    if (!/at most 23/.test(shown)) problems.push(`the quiet hour's field error reads "${shown}"`);
    // The page with its field error: axe, and a screenshot (the full check reloads, which would drop the error).
    ctx.axe['settings-error'] = await runAxe(page, 'settings with a field error', problems);
    await page.evaluate(`document.querySelector(${JSON.stringify(field)}).scrollIntoView({ block: 'center' })`);
    await screenshot(page, 'dashboard-settings-error.png', ctx.shots);

    await retype(ctx, field, '22');
    await clickButton(ctx, 'Save settings');
    await page.waitForFunction(`document.querySelector('.form-actions .success')?.textContent === 'Settings saved.'`, {
      timeout: 10_000,
    });
    const saved = await callApi(ctx, 'GET', '/client/settings');
    if (saved.json?.data?.quiet_hour_start !== 22)
      problems.push(`after the save the API has quiet_hour_start ${String(saved.json?.data?.quiet_hour_start)}`);
    await inspectPage(ctx, 'settings', field);
  },
};

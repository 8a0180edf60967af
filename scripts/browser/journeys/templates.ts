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

const FRAME = 'iframe.email-frame';
const SUBJECT = 'Welcome aboard, <%= it.contact.first_name ?? "friend" %>';
const HTML = '<h1>Hello <%= it.contact.first_name ?? "friend" %>, welcome aboard</h1><p>Edited in the dashboard.</p>';

/**
 * The text the preview frame shows: the server's document (POST …/email-templates/{id}/html), read through the
 * devtools protocol (the page itself cannot: the frame's origin is opaque). Empty until the frame has rendered.
 */
async function previewText(ctx: BrowserContext): Promise<string> {
  const frame = ctx.page
    .frames()
    .find((f) => f.name() === 'tp-preview-frame' && /\/email-templates\/\d+\/html$/.test(f.url()));
  if (!frame) return '';
  try {
    return String(await frame.evaluate('document.body ? document.body.textContent : ""'));
  } catch {
    return '';
  }
}

/** Replaces a field's whole text at once, as a paste does (one input event; a textarea's triple click selects one line). */
async function pasteOver(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  await ctx.page.focus(selector);
  await ctx.page.evaluate(`document.querySelector(${JSON.stringify(selector)}).select()`);
  await ctx.page.keyboard.sendCharacter(text);
}

/**
 * Templates, one edited with its preview following: the list searched from the navigation,
 * the system welcome template (read-only) copied to the client's templates, the copy's subject and HTML edited with
 * the preview frame following (render-preview's `draft`, debounced: far fewer renders than keystrokes), an unsafe tag
 * refused at the HTML field, then saved and read back from the API. The welcome workflow keeps sending the system
 * template (the copy is not chosen), so the next journeys' e-mails are unchanged.
 */
export const templatesJourney: Journey = {
  name: 'templates',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'Templates', 'Templates');
    await page.waitForSelector('#tp-templates-table', { visible: true, timeout: 10_000 });

    // Search: the address keeps it, and every row matches.
    await retype(ctx, '#tp-q', 'welcome');
    await clickButton(ctx, 'Search');
    await page.waitForFunction(
      `location.search === '?q=welcome' && document.querySelector('#tp-templates-table caption')?.textContent.includes('matching')`,
      { timeout: 10_000 },
    );
    const rows = (await page.$$eval('#tp-templates-table tbody tr', (trs) =>
      trs.map((tr) => tr.textContent ?? ''),
    )) as string[];
    if (rows.length === 0 || rows.some((row) => !/welcome/i.test(row)))
      problems.push(`the search for "welcome" lists ${JSON.stringify(rows)}`);
    await inspectPage(ctx, 'templates', '#tp-templates-table');

    // The system template: read-only, previewed.
    await page.click('#tp-templates-table a[href="/app/template/1"]');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Welcome'`, { timeout: 10_000 });
    await waitFor('the system template in the preview frame', async () => (await previewText(ctx)) || undefined);
    if (await page.$('#tp-html_body')) problems.push('a system template shows an editable HTML field');
    await inspectPage(ctx, 'template-system', FRAME);

    // Copied (or the copy a previous step made), and the copy opened in the editor.
    const copyButton = (await page.evaluate(
      `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Copy to edit')`,
    )) as boolean;
    if (copyButton) await clickButton(ctx, 'Copy to edit');
    else await page.click('.system-note a[href^="/app/template/"]');
    await page.waitForFunction(
      `location.pathname !== '/app/template/1' && document.querySelector('#tp-html_body') !== null`,
      {
        timeout: 10_000,
      },
    );
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const before = await waitFor('the copy in the preview frame', async () => (await previewText(ctx)) || undefined);

    // Edit the subject and the HTML: the preview follows, rendered by the API, without a render per keystroke.
    let renders = 0;
    const onRequest = (request: { url(): string }) => {
      if (request.url().endsWith('/render-preview')) renders += 1;
    };
    page.on('request', onRequest);
    await retype(ctx, '#tp-subject', SUBJECT);
    await pasteOver(ctx, '#tp-html_body', HTML);
    await page.waitForFunction(
      `document.querySelector('#tp-preview-subject')?.textContent === 'Welcome aboard, friend'`,
      { timeout: 10_000 },
    );
    const after = await waitFor('the edit in the preview frame', async () => {
      const text = await previewText(ctx);
      return text.includes('Edited in the dashboard.') && text.includes('Hello friend, welcome aboard')
        ? text
        : undefined;
    });
    page.off('request', onRequest);
    if (after === before) problems.push('the preview frame did not change after the edit');
    if (renders > 4)
      problems.push(`${renders} renders for ${SUBJECT.length} keystrokes and a paste: the preview is not debounced`);

    // An unsafe tag: render-preview refuses the draft (422) and the editor says so at the HTML field.
    ctx.expectRefusal(422, '/render-preview');
    await pasteOver(ctx, '#tp-html_body', `${HTML}<% it %>`);
    await page.waitForSelector('#tp-html_body[aria-invalid="true"]', { timeout: 10_000 });
    const error = (await page.$eval('#tp-html_body-error', (el) => el.textContent ?? '')) as string;
    if (!/refused/.test(error)) problems.push(`the HTML field's error reads "${error}"`);
    ctx.axe['template-error'] = await runAxe(page, 'template with a field error', problems);
    await page.evaluate(`document.querySelector('#tp-html_body').scrollIntoView({ block: 'center' })`);
    await screenshot(page, 'dashboard-template-error.png', ctx.shots);
    await pasteOver(ctx, '#tp-html_body', HTML);
    await page.waitForFunction(`document.querySelector('#tp-html_body').getAttribute('aria-invalid') === null`, {
      timeout: 10_000,
    });

    // Saved: the API has the edit.
    await clickButton(ctx, 'Save template');
    await page.waitForFunction(`document.querySelector('.editor .success')?.textContent === 'Template saved.'`, {
      timeout: 10_000,
    });
    const stored = await waitFor('the saved template', async () => {
      const answer = await callApi(ctx, 'GET', `/client/email-templates/${id}`);
      return answer.status === 200 ? (answer.json.data as { subject: string; html_body: string }) : undefined;
    });
    if (stored.subject !== SUBJECT || stored.html_body !== HTML)
      problems.push(`the API has the copy as ${JSON.stringify(stored)}`);
    await inspectPage(ctx, 'template', FRAME);
  },
};

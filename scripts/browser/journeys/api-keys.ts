import { type BrowserContext, type Journey, inspectPage, openFromNav } from '../harness.js';
import { clickButton, retype } from './settings.js';

const LABEL = 'Browser check';

/** A request with `key` (not the browser's session): its status. */
const statusWith = async (ctx: BrowserContext, key: string) =>
  (await fetch(`${ctx.baseUrl}/client/topics`, { headers: { authorization: `Bearer ${key}` } })).status;

/**
 * API keys, one created and disabled: a new key is shown once, in full, with a copy button;
 * it works; Disable makes the API refuse it; after a reload the page shows it masked only.
 */
export const apiKeysJourney: Journey = {
  name: 'api-keys',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'API keys', 'API keys');
    await page.waitForSelector('#st-key-label', { visible: true, timeout: 10_000 });
    await retype(ctx, '#st-key-label', LABEL);
    await clickButton(ctx, 'Create key');
    await page.waitForSelector('#st-new-key-value', { visible: true, timeout: 10_000 });
    const key = (await page.$eval('#st-new-key-value', (el) => (el as unknown as { value: string }).value)) as string;
    if (!/^els_[A-Za-z0-9]{40}$/.test(key)) problems.push(`the new key reads "${key}"`);
    if (!(await page.$('#st-new-key-title + .secret-warning')))
      problems.push('the new key has no "not shown again" warning');
    if ((await statusWith(ctx, key)) !== 200) problems.push('the new key is refused by the API');
    await page.waitForFunction(
      `[...document.querySelectorAll('#st-keys-table th')].some((th) => th.textContent === ${JSON.stringify(LABEL)})`,
      { timeout: 10_000 },
    );

    await clickButton(ctx, `Disable ${LABEL}`);
    await page.waitForFunction(
      `[...document.querySelectorAll('.success')].some((p) => p.textContent.startsWith('Key “${LABEL}” disabled'))`,
      { timeout: 10_000 },
    );
    const refused = await statusWith(ctx, key);
    if (refused !== 401) problems.push(`the disabled key gets ${refused} from the API, not 401`);

    await inspectPage(ctx, 'api-keys', '#st-keys-table');
    const html = (await page.content()) as string;
    if (html.includes(key)) problems.push('the key is shown again after a reload');
  },
};

import { type BrowserContext, type Journey, callApi, inspectPage, openFromNav, waitFor } from '../harness.js';

/**
 * The SES mailbox simulator address the local runtime refuses (MessageRejected): its welcome e-mail fails
 * (docs/api-guide.md, "Events, executions and sent e-mails").
 */
const REJECT = 'reject@simulator.amazonses.com';

/**
 * Executions: a welcome e-mail SES refuses makes a failed execution (4), as test/integration/engine/retry.test.ts
 * does; the overview's failed count links to the list filtered on it; Retry queues a new run and the failed one
 * becomes retried (7). Then that contact is erased from its page, behind its typed address.
 */
export const executionsJourney: Journey = {
  name: 'executions',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    const sent = await callApi(ctx, 'POST', '/client/events?sync=true', {
      type: 'signup',
      email: REJECT,
      auto_create_contact: true,
    });
    if (sent.status !== 201)
      throw new Error(`POST /client/events answered ${sent.status}: ${JSON.stringify(sent.json)}`);
    const failed = await waitFor('a failed execution (4)', async () => {
      const list = await callApi(ctx, 'GET', '/client/executions?status=4');
      return (list.json?.data?.executions as { id: number; contact_id: number }[] | undefined)?.find(
        (e) => e.contact_id === sent.json.data.contact_id,
      );
    });

    // The overview's count of failed executions is a link to them.
    await openFromNav(ctx, 'Overview', 'Overview');
    await page.waitForSelector('a[href="/app/executions?status=4"]', { visible: true, timeout: 10_000 });
    await page.click('a[href="/app/executions?status=4"]');
    await page.waitForFunction(
      `document.querySelector('h1')?.textContent === 'Executions' && location.search === '?status=4'`,
      { timeout: 10_000 },
    );
    await page.waitForSelector('#ct-executions-table', { visible: true, timeout: 10_000 });
    const status = (await page.$eval('#ct-status', (el) => (el as unknown as { value: string }).value)) as string;
    if (status !== '4') problems.push(`the status filter shows "${status}", not the address's 4`);
    await inspectPage(ctx, 'executions', '#ct-executions-table');

    // Retry: the answer is shown, the list read again, and the API says the failed one is retried (7).
    await page.click(`#ct-executions-table button[aria-label="Retry #${failed.id}"]`);
    await page.waitForFunction(
      `document.querySelector('.success')?.textContent.startsWith('Execution #${failed.id} is retried')`,
      { timeout: 10_000 },
    );
    const retried = await callApi(ctx, 'GET', '/client/executions?status=7');
    if (!((retried.json?.data?.executions ?? []) as { id: number }[]).some((e) => e.id === failed.id))
      problems.push(`execution ${failed.id} is not retried (7) after Retry`);

    // The list from the navigation, every status.
    await openFromNav(ctx, 'Executions', 'Executions');
    await page.waitForFunction(`location.search === '' && document.querySelector('#ct-executions-table') !== null`, {
      timeout: 10_000,
    });

    // The refused address's contact, from that list: erased once its address is typed.
    const contactId = sent.json.data.contact_id as number;
    await page.click(`#ct-executions-table a[href="/app/contact/${contactId}"]`);
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(REJECT)}`, {
      timeout: 10_000,
    });
    await page.waitForSelector('#ct-erase-confirm', { visible: true });
    if (!(await page.$eval('.danger-zone button.danger', (el) => (el as unknown as { disabled: boolean }).disabled)))
      problems.push('the erase button works before the address is typed');
    await page.focus('#ct-erase-confirm');
    await page.keyboard.type(REJECT);
    await page.click('.danger-zone button.danger');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Contact #${contactId} erased'`, {
      timeout: 15_000,
    });
    const gone = await callApi(ctx, 'GET', `/client/contacts/${contactId}`);
    if (gone.status !== 404) problems.push(`the erased contact still answers ${gone.status}`);
  },
};

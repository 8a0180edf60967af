import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, type Journey, callApi, inspectPage, openFromNav, waitFor } from '../harness.js';
import { clickButton, retype } from './settings.js';

interface Received {
  headers: IncomingHttpHeaders;
  type: string;
}

/**
 * Webhooks, one added: the empty state, a new endpoint pointed at a receiver on a free local
 * port (the local runtime sets WEBHOOK_ALLOW_PRIVATE_URLS, as test/integration/webhook-deliveries.test.ts relies on),
 * its secret shown once; on its page a test delivery reaches the receiver signed; a real event's attempts are listed
 * and one is replayed; Disable stops it (the receiver closes after).
 */
export const webhooksJourney: Journey = {
  name: 'webhooks',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    const received: Received[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let type = '';
        try {
          type = String((JSON.parse(body) as { type?: unknown }).type ?? '');
        } catch {
          type = '(not JSON)';
        }
        received.push({ headers: req.headers, type });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lifecycle`;
    try {
      await openFromNav(ctx, 'Webhooks', 'Webhooks');
      await page.waitForSelector('#st-new-webhook-url', { visible: true, timeout: 10_000 });
      const before = await callApi(ctx, 'GET', '/client/webhooks');
      if ((before.json?.data?.webhooks as unknown[] | undefined)?.length === 0) {
        if (!(await page.$('.card.empty')))
          problems.push('the webhooks page has no empty state for a client without endpoints');
        await inspectPage(ctx, 'webhooks-empty', '.card.empty');
      }

      // Add the endpoint: its secret once, then its page.
      await retype(ctx, '#st-new-webhook-url', url);
      await retype(ctx, '#st-new-webhook-description', 'Browser check receiver');
      await clickButton(ctx, 'Add endpoint');
      await page.waitForSelector('#st-new-secret-value', { visible: true, timeout: 10_000 });
      const secret = (await page.$eval(
        '#st-new-secret-value',
        (el) => (el as unknown as { value: string }).value,
      )) as string;
      if (!secret.startsWith('whsec_')) problems.push(`the new endpoint's secret reads "${secret}"`);
      const listed = await callApi(ctx, 'GET', '/client/webhooks');
      const hook = ((listed.json?.data?.webhooks ?? []) as { id: number; url: string }[]).find((w) => w.url === url);
      if (!hook) throw new Error(`the API does not list the endpoint ${url}`);
      await page.waitForSelector(`a[href="/app/webhook/${hook.id}"]`, { visible: true, timeout: 10_000 });
      await page.click(`a[href="/app/webhook/${hook.id}"]`);
      await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Webhook #${hook.id}'`, {
        timeout: 10_000,
      });

      // A test delivery, signed, reaches the receiver; the page says what the receiver answered.
      await clickButton(ctx, 'Send a test event');
      await page.waitForSelector('.test-outcome', { visible: true, timeout: 15_000 });
      const outcome = (await page.$eval('.test-outcome', (el) => el.textContent ?? '')) as string;
      if (!outcome.startsWith('Test delivered: the endpoint answered 204'))
        problems.push(`the test's outcome reads "${outcome}"`);
      const test = received.find((r) => r.type === 'webhook.test');
      if (!test?.headers['webhook-signature']) problems.push('the receiver got no signed webhook.test delivery');

      // A real event's deliveries are listed as attempts; one is replayed and arrives again.
      const sent = await callApi(ctx, 'POST', '/client/events?sync=true', {
        type: 'signup',
        email: 'hooked@example.com',
        auto_create_contact: true,
      });
      if (sent.status !== 201)
        throw new Error(`POST /client/events answered ${sent.status}: ${JSON.stringify(sent.json)}`);
      const first = await waitFor('an attempt of the endpoint', async () => {
        const attempts = await callApi(ctx, 'GET', `/client/webhooks/${hook.id}/attempts`);
        return (attempts.json?.data?.attempts as { message_id: string; event_type: string }[] | undefined)?.at(-1);
      });
      await page.reload();
      await page.waitForSelector('#st-attempts-table button', { visible: true, timeout: 10_000 });
      const replayed = (await page.$$eval('#st-attempts-table tbody tr', (rows) =>
        rows.map((row) => row.querySelector('small')?.textContent ?? ''),
      )) as string[];
      const target = replayed.at(-1)!;
      const buttons = await page.$$('#st-attempts-table button');
      await buttons.at(-1)!.click();
      await page.waitForFunction(
        `[...document.querySelectorAll('.success')].some((p) => p.textContent.includes('is queued again'))`,
        { timeout: 10_000 },
      );
      await waitFor(`the replay of ${target}`, async () =>
        received.filter((r) => r.headers['webhook-id'] === target).length >= 2 ? true : undefined,
      );
      if (target !== first.message_id && !replayed.includes(first.message_id))
        problems.push(`the attempts table does not show ${first.message_id}`);
      // The replay's own attempt is logged once it is delivered; the page re-reads its list after the replay was
      // queued, so a walk started now could race that re-render (focus falls back to the top with the old rows).
      // Inspect a page loaded after the replay's attempt is on record, which nothing redraws.
      await waitFor(`the replay's attempt of ${target}`, async () => {
        const attempts = await callApi(ctx, 'GET', `/client/webhooks/${hook.id}/attempts`);
        const listedAttempts = (attempts.json?.data?.attempts ?? []) as { message_id: string; replay?: boolean }[];
        return listedAttempts.some((a) => a.message_id === target && a.replay) ? true : undefined;
      });
      await page.reload();
      await page.waitForSelector('#st-attempts-table button', { visible: true, timeout: 10_000 });
      await inspectPage(ctx, 'webhook', '#st-attempts-table');

      await openFromNav(ctx, 'Webhooks', 'Webhooks');
      await page.waitForSelector('#st-webhooks-table', { visible: true, timeout: 10_000 });
      await inspectPage(ctx, 'webhooks', '#st-webhooks-table');

      // Disable it from its page: the API agrees.
      await page.click(`a[href="/app/webhook/${hook.id}"]`);
      await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Webhook #${hook.id}'`, {
        timeout: 10_000,
      });
      await page.waitForSelector('.row-actions button', { visible: true, timeout: 10_000 });
      await clickButton(ctx, 'Disable');
      await page.waitForFunction(`[...document.querySelectorAll('button')].some((b) => b.textContent === 'Enable')`, {
        timeout: 10_000,
      });
      const after = await callApi(ctx, 'GET', `/client/webhooks/${hook.id}`);
      if (after.json?.data?.enabled !== false) problems.push('after Disable the API still has the endpoint enabled');

      // A link in the older form (the record in the query) still opens the record, shown at its own path.
      await page.goto(`${ctx.origin}/app/webhook?id=${hook.id}`);
      const opened = await page
        .waitForFunction(
          `location.pathname === '/app/webhook/${hook.id}' && location.search === '' && document.querySelector('h1')?.textContent === 'Webhook #${hook.id}'`,
          { timeout: 10_000 },
        )
        .then(() => true)
        .catch(() => false);
      if (!opened)
        problems.push(`an old /app/webhook?id=${hook.id} link did not open the endpoint at /app/webhook/${hook.id}`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  },
};

import { randomUUID } from 'node:crypto';
import { type BrowserContext, type Journey, callApi, inspectPage, openFromNav, waitFor } from '../harness.js';

/** The contact the overview's journey signed up (its welcome e-mail was sent). */
const ADA = 'ada@example.com';
/** Apple Mail Privacy Protection's proxy fetches the pixel with this bare user agent (shared/domain/tracking/bot-detection.ts). */
const APPLE_MAIL_PROXY = 'Mozilla/5.0';
const PERSON =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';

/** Clicks the first element matching `selector` whose text is `text` (a link or a button), as a person would. */
export async function clickText(ctx: BrowserContext, selector: string, text: string): Promise<void> {
  const clicked = (await ctx.page.evaluate(
    `(() => { const el = [...document.querySelectorAll(${JSON.stringify(selector)})].find((el) => el.textContent.trim() === ${JSON.stringify(text)}); if (el) el.click(); return Boolean(el); })()`,
  )) as boolean;
  if (!clicked) throw new Error(`no ${selector} reads "${text}"`);
}

const h1Is = (text: string) => `document.querySelector('h1')?.textContent === ${JSON.stringify(text)}`;

/**
 * Contacts: from the navigation, search Ada, open her page and its activity, leave and rejoin a topic,
 * then open her welcome e-mail: the message in its sandboxed frame, styled, and its status history.
 */
export const contactsJourney: Journey = {
  name: 'contacts',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    // Setup: a topic to leave and join again (the client's own systems would create it by API).
    const listed = await callApi(ctx, 'GET', '/client/topics');
    let topic = listed.json?.data?.topics?.[0] as { id: number; name: string } | undefined;
    if (!topic) {
      const made = await callApi(ctx, 'POST', '/client/topics', {
        name: 'Product news',
        description: 'What we ship, once a month',
      });
      if (made.status !== 201)
        throw new Error(`POST /client/topics answered ${made.status}: ${JSON.stringify(made.json)}`);
      topic = made.json.data as { id: number; name: string };
    }

    // Setup: her welcome e-mail opened twice, by Apple Mail Privacy Protection's proxy (a machine) and by her (a
    // person), as SES would report it: through the local runtime's /dev/ses-events (test/integration/tracking does so).
    const welcome = await waitFor("Ada's welcome e-mail, delivered", async () => {
      const activity = await callApi(ctx, 'GET', `/client/contacts/${encodeURIComponent(ADA)}/activity`);
      const item = (
        activity.json?.data?.items as { kind: string; id: string; status_text: string }[] | undefined
      )?.find((i) => i.kind === 'sent_email');
      return item && item.status_text === 'delivered' ? item : undefined;
    });
    const email = (await callApi(ctx, 'GET', `/client/sent-emails/${welcome.id}`)).json.data;
    const mail = {
      messageId: email.provider_message_id,
      timestamp: email.created_at,
      source: email.from_email,
      destination: [email.to_email],
      tags: {
        'ses:configuration-set': ['email-lifecycle'],
        client_id: [String(email.client_id)],
        execution_id: [String(email.execution_id)],
        sent_email_id: [email.id],
      },
    };
    for (const userAgent of [APPLE_MAIL_PROXY, PERSON]) {
      const event = {
        eventType: 'Open',
        mail,
        open: { timestamp: new Date().toISOString(), userAgent, ipAddress: '203.0.113.7' },
      };
      const envelope = {
        Type: 'Notification',
        MessageId: randomUUID(),
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:email-lifecycle-ses-status',
        Message: JSON.stringify(event),
        Timestamp: new Date().toISOString(),
      };
      const injected = await fetch(`${ctx.baseUrl}/dev/ses-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(envelope),
      });
      if (injected.status !== 202)
        throw new Error(`POST /dev/ses-events answered ${injected.status}: ${await injected.text()}`);
    }
    await waitFor("the two opens in the e-mail's logs", async () => {
      const logs = (await callApi(ctx, 'GET', `/client/sent-emails/${welcome.id}`)).json.data.logs as {
        status_text: string;
      }[];
      return logs.filter((log) => log.status_text === 'opened').length >= 2 ? logs : undefined;
    });

    // The list, from the navigation; the search by e-mail prefix, kept in the address.
    await openFromNav(ctx, 'Contacts', 'Contacts');
    await page.waitForSelector('#ct-email-prefix', { visible: true });
    await page.focus('#ct-email-prefix');
    await page.keyboard.type(ADA);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      `location.search === '?email_prefix=ada%40example.com' && [...document.querySelectorAll('#ct-contacts-table a')].map((a) => a.textContent).join() === ${JSON.stringify(ADA)}`,
      { timeout: 10_000 },
    );
    await inspectPage(ctx, 'contacts', '#ct-contacts-table');

    // Her page: fields, health, activity with the welcome e-mail.
    await clickText(ctx, '#ct-contacts-table a', ADA);
    await page.waitForFunction(h1Is(ADA), { timeout: 10_000 });
    await page.waitForSelector('.timeline .timeline-sent_email a', { visible: true, timeout: 10_000 });
    const timeline = (await page.$eval('.timeline', (el) => el.textContent ?? '')) as string;
    for (const part of ['Event signup', 'Workflow run', 'E-mail'])
      if (!timeline.includes(part)) problems.push(`the contact's activity has no "${part}": ${timeline.slice(0, 300)}`);

    // A topic: leave it, then join again; the API agrees each time.
    const choiceOf = async () =>
      (
        (await callApi(ctx, 'GET', `/client/contacts/${encodeURIComponent(ADA)}`)).json.data.topic_subscriptions as {
          topic_id: number;
          is_subscribed: boolean;
        }[]
      ).find((choice) => choice.topic_id === topic.id)?.is_subscribed;
    const before = await choiceOf();
    const first = before ? `Unsubscribe from ${topic.name}` : `Subscribe to ${topic.name}`;
    const second = before ? `Subscribe to ${topic.name}` : `Unsubscribe from ${topic.name}`;
    await clickText(ctx, '.topic-list button', first);
    await page.waitForFunction(
      `[...document.querySelectorAll('.topic-list button')].some((b) => b.textContent === ${JSON.stringify(second)})`,
      { timeout: 10_000 },
    );
    if ((await choiceOf()) !== !before)
      problems.push(`after "${first}" the API still says is_subscribed ${String(before)} for topic ${topic.id}`);
    await page.waitForSelector('.timeline .timeline-topic', { visible: true, timeout: 10_000 });
    await clickText(ctx, '.topic-list button', second);
    await page.waitForFunction(
      `[...document.querySelectorAll('.topic-list button')].some((b) => b.textContent === ${JSON.stringify(first)})`,
      { timeout: 10_000 },
    );
    if ((await choiceOf()) !== before)
      problems.push(`after "${second}" the API does not say is_subscribed ${String(before)} for topic ${topic.id}`);
    await inspectPage(ctx, 'contact', '.timeline .timeline-sent_email a');

    // Her welcome e-mail, from the activity: the server's document of the message in a sandboxed frame, styled, and its
    // status history.
    await page.click('.timeline .timeline-sent_email a');
    await page.waitForSelector('iframe.email-frame', { visible: true, timeout: 10_000 });
    const sandbox = (await page.$eval('iframe.email-frame', (el) => el.getAttribute('sandbox'))) as string | null;
    if (sandbox !== '') problems.push(`the e-mail's frame has sandbox="${String(sandbox)}"`);
    const shown = await waitFor('the e-mail in its frame, styled', async () => {
      const frame = page.frames().find((f) => /\/api\/v1\/client\/sent-emails\/[^/]+\/html$/.test(f.url()));
      if (!frame) return undefined;
      const seen = (await frame.evaluate(
        `({ text: document.body ? document.body.innerText : '', styled: document.querySelectorAll('[style]').length })`,
      )) as {
        text: string;
        styled: number;
      };
      return seen.text.trim() && seen.styled > 0 ? seen : undefined;
    });
    if (!/Ada|welcome/i.test(shown.text))
      problems.push(`the e-mail's frame shows no welcome: ${shown.text.slice(0, 200)}`);
    const history = (await page.$$eval('.status-logs li', (els) => els.map((el) => el.textContent ?? ''))) as string[];
    if (!history.some((line) => line.includes('queued')))
      problems.push(`the sent e-mail's status history lacks "queued": ${history.join(' / ')}`);
    if (!history.some((line) => line.includes('opened by a machine: Apple Mail Privacy Protection')))
      problems.push(`no bot mark with its reason in the history: ${history.join(' / ')}`);
    if (!history.some((line) => line.includes('opened by a person')))
      problems.push(`no open by a person in the history: ${history.join(' / ')}`);
    await inspectPage(ctx, 'sent-email', 'iframe.email-frame');
  },
};

import { randomUUID } from 'node:crypto';
import {
  type BrowserContext,
  type Journey,
  callApi,
  inspectPage,
  openFromNav,
  screenshot,
  waitFor,
} from '../harness.js';

const SEGMENT = 'Pro plan';
const BROADCAST = 'Pro news';
/** The contacts set up through the API: two on the pro plan (the segment's members), one not. */
const PRO = ['pro-ann@example.com', 'pro-bob@example.com'];
const FREE = 'free-cat@example.com';

/** What the condition builder is driven to write: the plan is pro, and the contact takes marketing mail. */
const DEFINITION = {
  match: 'all',
  groups: [
    {
      match: 'all',
      conditions: [
        { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' },
        { on: 'subscription', op: 'subscribed' },
      ],
    },
  ],
};
/** The builder's control ids for the new segment's group 1, condition `c`. */
const BUILT = (c: number, part: string) => `#sg-new-definition-builder-g0-c${c}-${part}`;

/**
 * Chooses a select's option: focused by the keyboard, then chosen (puppeteer's select fires the input and change a
 * person's arrow keys would; type-ahead in headless Chromium does not fire change on every platform).
 */
async function chooseOption(ctx: BrowserContext, selector: string, value: string): Promise<void> {
  const { page } = ctx;
  // By the options' values (an option whose text is its value carries no value attribute).
  await page.waitForFunction(
    `[...(document.querySelector(${JSON.stringify(selector)})?.options ?? [])].some((o) => o.value === ${JSON.stringify(value)})`,
    { timeout: 10_000 },
  );
  await page.focus(selector);
  await page.select(selector, value);
}

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

/** The link the broadcast's click notifications name (the template's links are the demo's own). */
const CLICKED_LINK = 'https://example.com/pro-news';
/** A browser's user agent (a person) and a link checker's (a machine), as SES reports them in a click. */
const PERSON_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SCANNER_UA = 'python-requests/2.31.0';

/** A text as a regular expression's source matching it literally. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A click by a person, then one by a link scanner, on `email`'s e-mail of the broadcast: SES's Click events in SNS
 * envelopes, posted to the local runtime's /dev/ses-events (as SNS would deliver them on AWS), once the e-mail is
 * delivered; then waits until the broadcast's answer counts both (its links follow the notifications by ≈ 10 s).
 */
async function clickAsPersonAndScanner(ctx: BrowserContext, broadcastId: number, email: string): Promise<void> {
  const listed = await callApi(ctx, 'GET', `/client/broadcasts/${broadcastId}/recipients`);
  const recipient = (listed.json?.data?.recipients ?? []).find((r: { email: string }) => r.email === email);
  if (!recipient?.sent_email_id) throw new Error(`${email} has no e-mail of broadcast ${broadcastId}`);
  const sent = await waitFor(`${email}'s e-mail delivered`, async () => {
    const read = await callApi(ctx, 'GET', `/client/sent-emails/${recipient.sent_email_id}`);
    const data = read.json?.data;
    return data?.status >= 3 && data.provider_message_id ? data : undefined;
  });
  const delivered = Date.parse(
    sent.logs.find((log: { status: number }) => log.status === 3)?.created_at ?? sent.created_at,
  );
  const mail = {
    messageId: sent.provider_message_id,
    timestamp: sent.created_at,
    source: sent.from_email,
    destination: [sent.to_email],
    tags: {
      'ses:configuration-set': ['email-lifecycle'],
      client_id: [String(sent.client_id)],
      execution_id: [String(sent.execution_id)],
      sent_email_id: [sent.id],
    },
  };
  for (const [minutes, userAgent] of [
    [10, PERSON_UA],
    [11, SCANNER_UA],
  ] as const) {
    const click = {
      eventType: 'Click',
      mail,
      click: {
        timestamp: new Date(delivered + minutes * 60_000).toISOString(),
        ipAddress: '203.0.113.7',
        userAgent,
        link: CLICKED_LINK,
        linkTags: {},
      },
    };
    const posted = await callApi(ctx, 'POST', '/dev/ses-events', {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:email-lifecycle-ses-status',
      Message: JSON.stringify(click),
      Timestamp: new Date().toISOString(),
    });
    if (posted.status !== 202) throw new Error(`POST /dev/ses-events answered ${posted.status}`);
  }
  const until = Date.now() + 45_000;
  for (;;) {
    const read = await callApi(ctx, 'GET', `/client/broadcasts/${broadcastId}`);
    const link = (read.json?.data?.links ?? []).find((l: { url: string }) => l.url === CLICKED_LINK);
    if (link?.human_clicks === 1 && link.machine_clicks === 1) return;
    if (Date.now() > until)
      throw new Error(`the broadcast's links never counted the two clicks: ${JSON.stringify(read.json?.data?.links)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Segments and broadcasts: a segment "custom field plan = pro, subscribed" built with the condition builder by
 * keyboard (the JSON view agreeing), its live count (the two
 * pro contacts of three), its page once its backfill is done, its members from the Members tab (the arrow key); then a
 * broadcast to it, created as a draft from the form, its subject finished with Edit draft, a test sent to oneself, scheduled now after the question naming the count, and its report
 * showing both sends, each pro contact mailed once and the other not at all (the local SES store); its results after a
 * person's and a scanner's click (the link with one click of each, the recipients, the CSV download); then its resend
 * to the non-openers made from the report, opening linked back to it.
 */
export const segmentsBroadcastsJourney: Journey = {
  name: 'segments-broadcasts',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    for (const email of [...PRO, FREE]) {
      const plan = email === FREE ? 'free' : 'pro';
      const made = await callApi(ctx, 'POST', '/client/contacts', { email, custom_fields: { plan } });
      if (made.status !== 201)
        throw new Error(`POST /client/contacts answered ${made.status}: ${JSON.stringify(made.json)}`);
    }

    // The segment, by keyboard with the condition builder: a custom field condition chosen by kind (plan is pro), a
    // second condition (subscribed), the live count, the JSON view agreeing, Create.
    await openFromNav(ctx, 'Segments', 'Segments');
    await waitForText(ctx, '#sg-new-definition-count', 'contacts? match now');
    await inspectPage(ctx, 'segments', '#sg-new-definition-count[aria-busy="false"]');
    await typeInto(ctx, '#sg-new-name', SEGMENT);
    await chooseOption(ctx, BUILT(0, 'kind'), 'tag');
    await chooseOption(ctx, BUILT(0, 'kind'), 'custom_field');
    await typeInto(ctx, BUILT(0, 'name'), 'plan');
    await chooseOption(ctx, BUILT(0, 'op'), 'eq');
    await typeInto(ctx, BUILT(0, 'value'), 'pro');
    await pressButton(ctx, 'Add a condition to group 1');
    await page
      .waitForFunction(`document.activeElement?.id === ${JSON.stringify(BUILT(1, 'kind').slice(1))}`, {
        timeout: 5_000,
      })
      .catch(() => problems.push('Add a condition did not move the focus to the new condition’s kind'));
    await chooseOption(ctx, BUILT(1, 'kind'), 'subscription');
    await chooseOption(ctx, BUILT(1, 'op'), 'subscribed');
    await waitForText(ctx, '#sg-new-definition-count', '^2 contacts match now\\.$');
    const json = (await page.$eval('#sg-new-definition', (el) => (el as unknown as { value: string }).value)) as string;
    if (JSON.stringify(JSON.parse(json)) !== JSON.stringify(DEFINITION))
      problems.push(`the builder wrote ${json}, not ${JSON.stringify(DEFINITION)}`);
    await screenshot(page, 'dashboard-segments-builder.png', ctx.shots);
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

    // The broadcast: the form on the list (name, template, subject, the segment), created as a draft.
    await openFromNav(ctx, 'Broadcasts', 'Broadcasts');
    await typeInto(ctx, '#bc-name', BROADCAST);
    await page.waitForSelector('#bc-template option[value="1"]', { timeout: 10_000 });
    await page.select('#bc-template', '1');
    await typeInto(ctx, '#bc-subject', 'News for pro');
    await page.waitForSelector(`#bc-segment option[value="${segmentId}"]`, { timeout: 10_000 });
    await page.select('#bc-segment', String(segmentId));
    await inspectPage(ctx, 'broadcasts', '#bc-segment');
    await page.waitForSelector(`#bc-segment option[value="${segmentId}"]`, { timeout: 10_000 });
    await page.select('#bc-segment', String(segmentId));
    await page.waitForSelector('#bc-template option[value="1"]', { timeout: 10_000 });
    await page.select('#bc-template', '1');
    await typeInto(ctx, '#bc-name', BROADCAST);
    await typeInto(ctx, '#bc-subject', 'News for pro');
    await pressButton(ctx, 'Create draft');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(BROADCAST)}`, {
      timeout: 10_000,
    });
    const broadcastId = Number(page.url().split('/').at(-1));

    // The draft edited in place by keyboard: Edit draft moves the focus into the form; the subject finished, saved.
    await pressButton(ctx, 'Edit draft');
    await page
      .waitForFunction(`document.activeElement?.id === 'bc-name'`, { timeout: 5_000 })
      .catch(() => problems.push('Edit draft did not move the focus to the form’s first field'));
    await typeInto(ctx, '#bc-subject', 'News for pro customers');
    await pressButton(ctx, 'Save draft');
    await waitForText(ctx, 'section[aria-labelledby="bc-draft-title"]', 'SubjectNews for pro customers');
    const edited = await callApi(ctx, 'GET', `/client/broadcasts/${broadcastId}`);
    if (
      edited.json?.data?.draft_version !== 2 ||
      edited.json?.data?.definition?.variants?.[0]?.subject !== 'News for pro customers'
    )
      problems.push(`the saved draft reads ${JSON.stringify(edited.json?.data?.definition?.variants)}`);

    // A test to oneself first: sent now, "[Test]" before the subject, not counted.
    await pressButton(ctx, 'Send test');
    await waitForText(ctx, 'form[aria-labelledby="bc-test-title"] .success', '^Sent one test');
    const tests = (await (await fetch(`${ctx.sesUrl}/store`)).json()) as {
      emails: { destination: { to: string[] }; subject: string }[];
    };
    if (!tests.emails.some((m) => m.subject === '[Test] News for pro customers'))
      problems.push('the test send put no "[Test] News for pro customers" in the SES store');

    // Schedule now: the question names the segment's count.
    await pressButton(ctx, 'Schedule');
    const question = (await page.$eval('.confirm', (el) => el.textContent ?? '')) as string;
    if (!question.includes(`Send “${BROADCAST}” to 2 contacts now?`))
      problems.push(`the schedule question does not name the audience count: "${question}"`);
    await pressButton(ctx, 'Yes, schedule');
    await page.waitForSelector('#bc-totals', { visible: true, timeout: 15_000 });
    await waitForText(ctx, '#bc-totals', '^Audience2Sent2', 90_000);
    await waitForText(ctx, '.page-head .badge', '^sent$', 30_000);
    await inspectPage(ctx, 'broadcast', '#bc-totals');

    // Each pro contact got it once, the other contact not at all.
    const store = (await (await fetch(`${ctx.sesUrl}/store`)).json()) as {
      emails: { destination: { to: string[] }; subject: string }[];
    };
    const to = (email: string) =>
      store.emails.filter((m) => m.destination.to.some((t) => t.includes(email)) && m.subject.includes('News for pro'));
    for (const email of PRO)
      if (to(email).length !== 1) problems.push(`${email} got the broadcast ${to(email).length} times, not once`);
    if (to(FREE).length !== 0) problems.push(`${FREE} got the broadcast`);
    const head = await callApi(ctx, 'GET', `/client/broadcasts/${broadcastId}`);
    if (head.json?.data?.status !== 'sent') problems.push(`the API says the broadcast is ${head.json?.data?.status}`);

    // Its results: a person clicks a link in the first pro contact's e-mail and a link scanner follows it (SES's click
    // notifications, replayed as the local runtime takes them); the page, read again, lists the link with one click of
    // each kind, and the recipients, the clicker's status "clicked"; Download CSV fetches the export.
    await clickAsPersonAndScanner(ctx, broadcastId, PRO[0] as string);
    await page.reload();
    await page.waitForSelector('#bc-links-table', { visible: true, timeout: 15_000 });
    await waitForText(ctx, '#bc-links-table tbody', `^${escaped(CLICKED_LINK)}11$`);
    await waitForText(ctx, '#bc-recipients-table tbody', escaped(`${PRO[0]}clicked`));
    const recipients = (await page.$eval('#bc-recipients-table tbody', (el) => el.textContent ?? '')) as string;
    for (const email of PRO)
      if (!recipients.includes(email)) problems.push(`the recipients table does not list ${email}`);
    if (recipients.includes(FREE)) problems.push(`the recipients table lists ${FREE}`);
    await pressButton(ctx, 'Download CSV');
    await waitForText(
      ctx,
      'section[aria-labelledby="bc-recipients-title"] .success',
      '^Downloaded 2 recipients as CSV\\.$',
    );
    await inspectPage(ctx, 'broadcast-results', '#bc-recipients-table');

    // Its resend to the non-openers, by keyboard: a subject, an hour after the start; it opens, linked back.
    await typeInto(ctx, '#bc-resend-subject', 'Did you see our pro news?');
    await typeInto(ctx, '#bc-resend-hours', '1');
    await pressButton(ctx, 'Make the resend');
    await page.waitForFunction(
      `document.querySelector('h1')?.textContent === ${JSON.stringify(`${BROADCAST} (resend)`)}`,
      {
        timeout: 10_000,
      },
    );
    await page.waitForSelector(`a[href="/app/broadcast/${broadcastId}"]`, { visible: true, timeout: 10_000 });
    const child = await callApi(ctx, 'GET', `/client/broadcasts/${Number(page.url().split('/').at(-1))}`);
    if (child.json?.data?.kind !== 'resend' || child.json?.data?.parent_id !== broadcastId)
      problems.push(`the resend reads ${JSON.stringify(child.json?.data?.kind)} of ${child.json?.data?.parent_id}`);
  },
};

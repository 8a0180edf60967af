import { describe, expect, it } from 'vitest';
import {
  awaitStatus,
  deliveredAt,
  deliveredWelcome,
  getContact,
  HEALTH_SCORE,
  HUMAN_IP,
  HUMAN_UA,
  injectAndAwait,
  later,
  logItem,
  MINUTE_MS,
  SCANNER_UA,
  SENT_STATUS,
  sendTrialEnding,
  sentEmailOf,
  sesEvent,
  sesMailOf,
  type TrackedEmail,
} from './support.js';

const LINK = 'https://example.com/pricing?utm_source=welcome';

describe('a person opening the e-mail', () => {
  it('is logged with its ip, user agent and own time, makes the e-mail opened (4) and counts on the contact', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const openedAt = later(deliveredAt(t.email), MINUTE_MS);
    const before = await getContact(t.client.api_key, t.contactId);

    // Act
    const { email, log } = await injectAndAwait(t, sesEvent.open(sesMailOf(t), openedAt), openedAt);

    // Assess
    expect(log).toEqual(
      logItem({
        created_at: openedAt,
        status: 4,
        status_text: 'opened',
        provider_message_id: t.messageId,
        ip_address: HUMAN_IP,
        user_agent: HUMAN_UA,
        is_bot: false,
        bot_reason: null,
      }),
    );
    expect(email).toMatchObject({ status: 4, status_text: 'opened' });
    expect(before).toMatchObject({ total_emails_opened: 0, total_emails_clicked: 0, last_email_opened_at: null });
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      total_emails_opened: 1,
      total_emails_clicked: 0,
      last_email_opened_at: openedAt,
      last_activity_at: openedAt,
      health_score: HEALTH_SCORE,
    });
  });

  it('counts the e-mail once however often the person opens it, and logs every open', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const first = later(deliveredAt(t.email), MINUTE_MS);
    const second = later(first, 10 * MINUTE_MS);
    await injectAndAwait(t, sesEvent.open(sesMailOf(t), first), first);

    // Act
    const { email } = await injectAndAwait(t, sesEvent.open(sesMailOf(t), second), second);

    // Assess
    expect(
      email.logs
        .filter((l) => l.status === SENT_STATUS.opened)
        .map((l) => l.created_at)
        .sort(),
    ).toEqual([first, second]);
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      total_emails_opened: 1,
      last_email_opened_at: second,
      last_activity_at: second,
    });
  });

  it('counts each e-mail the person opened: two e-mails opened make total_emails_opened 2', async () => {
    // Prepare
    const welcome = await deliveredWelcome();
    const key = welcome.client.api_key;
    const event = await sendTrialEnding(key, welcome.address);
    const trial = await sentEmailOf(key, event, 3);
    const trialEnding: TrackedEmail = {
      ...welcome,
      ...trial,
      email: await awaitStatus(key, trial.email.id, SENT_STATUS.delivered),
    };
    const firstOpen = later(deliveredAt(trialEnding.email), MINUTE_MS);
    const secondOpen = later(firstOpen, MINUTE_MS);

    // Act
    await injectAndAwait(welcome, sesEvent.open(sesMailOf(welcome), firstOpen), firstOpen);
    await injectAndAwait(trialEnding, sesEvent.open(sesMailOf(trialEnding), secondOpen), secondOpen);

    // Assess
    expect(trialEnding.email.id).not.toBe(welcome.email.id);
    expect(await getContact(key, welcome.contactId)).toMatchObject({
      total_emails_opened: 2,
      last_email_opened_at: secondOpen,
      health_score: HEALTH_SCORE,
    });
  });
});

describe('a person clicking a link', () => {
  it('is logged with the url, makes the e-mail clicked (5) and counts in total_emails_clicked', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const clickedAt = later(deliveredAt(t.email), 2 * MINUTE_MS);

    // Act
    const { email, log } = await injectAndAwait(t, sesEvent.click(sesMailOf(t), clickedAt, LINK), clickedAt);

    // Assess
    expect(log).toEqual(
      logItem({
        created_at: clickedAt,
        status: 5,
        status_text: 'clicked',
        provider_message_id: t.messageId,
        url: LINK,
        ip_address: HUMAN_IP,
        user_agent: HUMAN_UA,
        is_bot: false,
        bot_reason: null,
      }),
    );
    expect(email).toMatchObject({ status: 5, status_text: 'clicked' });
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      total_emails_clicked: 1,
      last_activity_at: clickedAt,
      last_email_clicked_at: clickedAt,
      health_score: HEALTH_SCORE,
    });
  });

  it('counts the e-mail once however often the person clicks', async () => {
    // Prepare
    const t = await deliveredWelcome();
    const first = later(deliveredAt(t.email), MINUTE_MS);
    const second = later(first, 5 * MINUTE_MS);
    await injectAndAwait(t, sesEvent.click(sesMailOf(t), first, LINK), first);

    // Act
    const { email } = await injectAndAwait(t, sesEvent.click(sesMailOf(t), second, 'https://example.com/docs'), second);

    // Assess
    expect(email.logs.filter((l) => l.status === SENT_STATUS.clicked && !l.is_bot)).toHaveLength(2);
    expect(await getContact(t.client.api_key, t.contactId)).toMatchObject({
      total_emails_clicked: 1,
      last_activity_at: second,
    });
  });
});

describe('machines opening and clicking', () => {
  const MICROSOFT_EDGE_UA =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86';
  it.each([
    ['a click 2 seconds after the delivery, from a desktop browser', 'click', 2_000, HUMAN_UA, 'too_fast'],
    [
      'a Microsoft Defender Safe Links detonation (a browser, seconds after the delivery)',
      'click',
      3_000,
      MICROSOFT_EDGE_UA,
      'too_fast',
    ],
    ['an open by an HTTP client (python-requests)', 'open', MINUTE_MS, SCANNER_UA, 'security_scanner'],
    ['a click by an HTTP client (python-requests)', 'click', MINUTE_MS, SCANNER_UA, 'security_scanner'],
    [
      "an open through Apple Mail Privacy Protection (its proxy's bare user agent)",
      'open',
      MINUTE_MS,
      'Mozilla/5.0',
      'apple_mail_privacy',
    ],
  ] as const)(
    'logs %s as a bot and leaves the contact as it was',
    async (_case, kind, afterDeliveryMs, userAgent, reason) => {
      // Prepare
      const t = await deliveredWelcome();
      const at = later(deliveredAt(t.email), afterDeliveryMs);
      const ipAddress = '40.94.0.12';
      const event =
        kind === 'open'
          ? sesEvent.open(sesMailOf(t), at, { userAgent, ipAddress })
          : sesEvent.click(sesMailOf(t), at, LINK, { userAgent, ipAddress });
      const before = await getContact(t.client.api_key, t.contactId);

      // Act
      const { log } = await injectAndAwait(t, event, at);

      // Assess
      expect(log).toEqual(
        logItem({
          created_at: at,
          status: kind === 'open' ? 4 : 5,
          status_text: kind === 'open' ? 'opened' : 'clicked',
          provider_message_id: t.messageId,
          url: kind === 'open' ? null : LINK,
          ip_address: ipAddress,
          user_agent: userAgent,
          is_bot: true,
          bot_reason: reason,
        }),
      );
      const after = await getContact(t.client.api_key, t.contactId);
      expect(after).toEqual(before);
      expect(after).toMatchObject({ total_emails_opened: 0, total_emails_clicked: 0, last_email_opened_at: null });
    },
  );
});

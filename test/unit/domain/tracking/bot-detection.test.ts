import { isbot } from 'isbot';
import { describe, expect, it } from 'vitest';
import {
  BOT_REASONS,
  classifyEngagement,
  SAME_SECOND_MS,
  TOO_FAST_MS,
  type EngagementInput,
} from '../../../../shared/domain/tracking/bot-detection.js';

const DELIVERED = '2026-03-02T09:00:00.000Z';
const afterDelivery = (ms: number) => new Date(Date.parse(DELIVERED) + ms).toISOString();
const MINUTE_LATER = afterDelivery(60_000);
const LINK_A = 'https://acme.test/a';
const LINK_B = 'https://acme.test/b';
const LINK_C = 'https://acme.test/c';

/** Real user agents of people reading and clicking mail. */
const PEOPLE = {
  'desktop Chrome':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'iPhone Mail':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Apple Mail on macOS (MPP off)':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  'Outlook desktop (Word engine)': 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)',
  'Outlook desktop (new)': 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)',
  'Gmail web in Chrome on a Mac':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Gmail web in Firefox': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Android Chrome':
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36',
  Thunderbird: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0',
};
const CHROME = PEOPLE['desktop Chrome'];

const open = (fields: Partial<EngagementInput> = {}): EngagementInput => ({
  kind: 'open',
  occurredAt: MINUTE_LATER,
  deliveredAt: DELIVERED,
  ...fields,
});
const click = (fields: Partial<EngagementInput> = {}): EngagementInput => ({
  kind: 'click',
  url: LINK_A,
  occurredAt: MINUTE_LATER,
  deliveredAt: DELIVERED,
  ...fields,
});
const human = { is_bot: false };
const bot = (reason: string) => ({ is_bot: true, reason });

describe('classifyEngagement: people', () => {
  it.each(Object.entries(PEOPLE))(
    'takes an open and a click from %s a minute after delivery for a person',
    (_name, userAgent) => {
      // Prepare
      const events = [open({ userAgent }), click({ userAgent })];
      // Act
      const verdicts = events.map(classifyEngagement);
      // Assess
      expect(verdicts).toEqual([human, human]);
    },
  );

  it.each([
    ['a click', click()],
    ['an open', open()],
  ])('does not take %s without a user agent for a machine by itself', (_case, input) => {
    expect(classifyEngagement(input)).toEqual(human);
  });

  it('takes an open a second after delivery for a person (only clicks are timed)', () => {
    expect(classifyEngagement(open({ userAgent: CHROME, occurredAt: afterDelivery(1_000) }))).toEqual(human);
  });

  it('takes a click from an Exchange Online address outside Exchange Online Protection for a person', () => {
    expect(classifyEngagement(click({ userAgent: CHROME, ipAddress: '52.96.10.20' }))).toEqual(human);
  });
});

describe('classifyEngagement: one signal each', () => {
  it('lists its reasons in the order it checks them', () => {
    expect(BOT_REASONS).toEqual([
      'ses_flag',
      'security_scanner',
      'apple_mail_privacy',
      'image_proxy',
      'isbot_user_agent',
      'too_fast',
      'all_links_same_second',
    ]);
  });

  it('trusts the SES flag first', () => {
    expect(classifyEngagement(open({ userAgent: CHROME, sesBotFlag: true }))).toEqual(bot('ses_flag'));
    expect(classifyEngagement(open({ userAgent: CHROME, sesBotFlag: false }))).toEqual(human);
  });

  // Gateways rarely publish their scanner's user agent: Barracuda's is the one isbot lists; the other vendor rows carry
  // the vendor's token as their scanners send it when they name themselves. The libraries' are their defaults.
  it.each([
    ['Barracuda', 'Barracuda Sentinel (EE)'],
    ['Mimecast', 'Mozilla/5.0 (compatible; Mimecast URL Protect)'],
    ['Proofpoint', 'Mozilla/5.0 (compatible; Proofpoint URL Defense)'],
    ['Proofpoint (ppops host)', 'ppops-scanner/1.0'],
    ['Cisco IronPort', 'Mozilla/5.0 (compatible; Cisco IronPort URL Filtering)'],
    ['Symantec MessageLabs', 'Mozilla/4.0 (compatible; MessageLabs Link Scanner)'],
    ['Trend Micro', 'Mozilla/5.0 (compatible; Trend Micro Email Security)'],
    ['Sophos', 'Mozilla/5.0 (compatible; Sophos Email Link Scanner)'],
    ['FireEye', 'Mozilla/5.0 (compatible; FireEye Email Security)'],
    [
      'BingPreview',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) BingPreview/1.0b',
    ],
    ['python-requests', 'python-requests/2.31.0'],
    ['Python urllib', 'Python-urllib/3.11'],
    ['aiohttp', 'Python/3.11 aiohttp/3.9.1'],
    ['Go', 'Go-http-client/1.1'],
    ['curl', 'curl/8.5.0'],
    ['Wget', 'Wget/1.21.4'],
    ['Java', 'Java/17.0.9'],
    ['okhttp', 'okhttp/4.12.0'],
    ['axios', 'axios/1.6.8'],
    ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
    ['libwww-perl', 'libwww-perl/6.72'],
    [
      'headless Chrome',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36',
    ],
  ])('flags %s as a security scanner, on a click and on an open', (_name, userAgent) => {
    expect(classifyEngagement(click({ userAgent }))).toEqual(bot('security_scanner'));
    expect(classifyEngagement(open({ userAgent }))).toEqual(bot('security_scanner'));
  });

  it.each([
    ['IPv4 (gophish #973)', '40.107.218.12'],
    ['IPv4 at the start of a range', '40.92.0.0'],
    ['IPv4 at the end of a range', '104.47.127.255'],
    ['IPv4-mapped IPv6', '::ffff:40.107.218.12'],
    ['IPv6', '2a01:111:f403:c000::1'],
  ])(
    'flags Microsoft Defender Safe Links (a desktop Chrome user agent from Exchange Online Protection, %s) as a security scanner',
    (_case, ipAddress) => {
      // The user agent Safe Links sent in gophish #973.
      const userAgent =
        'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/57.0.2987.133 Safari/537.36';
      expect(classifyEngagement(click({ userAgent, ipAddress }))).toEqual(bot('security_scanner'));
      expect(classifyEngagement(open({ ipAddress }))).toEqual(bot('security_scanner'));
    },
  );

  it.each([
    ['next to a range', '104.47.128.1'],
    ['not an address', 'unknown'],
    ['empty', ''],
  ])('ignores an address %s', (_case, ipAddress) => {
    expect(classifyEngagement(click({ userAgent: CHROME, ipAddress }))).toEqual(human);
  });

  it("flags an open through Apple Mail Privacy Protection (the proxy's bare user agent) apart from other machines", () => {
    expect(isbot('Mozilla/5.0')).toBe(true); // why the Apple rule runs before isbot's
    expect(classifyEngagement(open({ userAgent: 'Mozilla/5.0' }))).toEqual(bot('apple_mail_privacy'));
    expect(classifyEngagement(open({ userAgent: ' Mozilla/5.0 ' }))).toEqual(bot('apple_mail_privacy'));
  });

  it('takes a click with the bare Apple proxy user agent for a crawler, not a privacy open', () => {
    expect(classifyEngagement(click({ userAgent: 'Mozilla/5.0' }))).toEqual(bot('isbot_user_agent'));
  });

  it.each([
    ['Gmail', 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'],
    ['Yahoo', 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html'],
    ['Shortwave', 'Shortwave Image Fetcher'],
  ])('flags a %s image proxy open', (_name, userAgent) => {
    expect(classifyEngagement(open({ userAgent }))).toEqual(bot('image_proxy'));
  });

  it.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['Facebook link preview', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
    ['Slack link preview', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  ])('flags %s, which the isbot library knows', (_name, userAgent) => {
    expect(classifyEngagement(click({ userAgent }))).toEqual(bot('isbot_user_agent'));
  });
});

describe('classifyEngagement: too fast', () => {
  it.each([
    ['at the delivery instant', 0, true],
    ['just inside the window', TOO_FAST_MS - 1, true],
    ['at the window (inclusive)', TOO_FAST_MS, true],
    ['just after the window', TOO_FAST_MS + 1, false],
    ['before the delivery was recorded (a gateway scanning in the SMTP transaction)', -2_000, true],
  ])('takes a click %s for a machine: %s', (_case, ms, isBot) => {
    const verdict = classifyEngagement(click({ userAgent: CHROME, occurredAt: afterDelivery(ms) }));
    expect(verdict).toEqual(isBot ? bot('too_fast') : human);
  });

  it('times a click from the send while the delivery is not known', () => {
    expect(
      classifyEngagement(
        click({ userAgent: CHROME, deliveredAt: undefined, sentAt: DELIVERED, occurredAt: afterDelivery(2_000) }),
      ),
    ).toEqual(bot('too_fast'));
  });

  it('times a click from the delivery when both are known', () => {
    const base = { userAgent: CHROME, sentAt: DELIVERED, deliveredAt: afterDelivery(60_000) };
    expect(classifyEngagement(click({ ...base, occurredAt: afterDelivery(62_000) }))).toEqual(bot('too_fast'));
    expect(classifyEngagement(click({ ...base, occurredAt: afterDelivery(70_000) }))).toEqual(human);
  });

  it('does not time a click when neither the delivery nor the send is known', () => {
    expect(
      classifyEngagement(click({ userAgent: CHROME, deliveredAt: undefined, occurredAt: afterDelivery(1) })),
    ).toEqual(human);
  });

  it('names the scanner rather than the timing when both fire', () => {
    expect(classifyEngagement(click({ userAgent: 'curl/8.5.0', occurredAt: afterDelivery(500) }))).toEqual(
      bot('security_scanner'),
    );
  });
});

describe('classifyEngagement: every link within one second', () => {
  const at = 600_000;
  const burst = (url: string, ms: number, others: Array<[string, number]>, linkCount?: number) =>
    classifyEngagement(
      click({
        userAgent: CHROME,
        url,
        occurredAt: afterDelivery(at + ms),
        otherClicks: others.map(([u, t]) => ({ url: u, occurredAt: afterDelivery(at + t) })),
        ...(linkCount === undefined ? {} : { linkCount }),
      }),
    );

  it.each([
    ['two links 400 ms apart', true, () => burst(LINK_B, 400, [[LINK_A, 0]])],
    ['two links just under a second apart', true, () => burst(LINK_B, SAME_SECOND_MS - 1, [[LINK_A, 0]])],
    ['two links exactly a second apart', false, () => burst(LINK_B, SAME_SECOND_MS, [[LINK_A, 0]])],
    ['two links three seconds apart', false, () => burst(LINK_B, 3_000, [[LINK_A, 0]])],
    ['the same link twice', false, () => burst(LINK_A, 300, [[LINK_A, 0]])],
    ['a later click already recorded (notifications out of order)', true, () => burst(LINK_A, 0, [[LINK_B, 500]])],
    ['two of three known links', false, () => burst(LINK_B, 400, [[LINK_A, 0]], 3)],
    [
      'all three known links',
      true,
      () =>
        burst(
          LINK_C,
          800,
          [
            [LINK_A, 0],
            [LINK_B, 400],
          ],
          3,
        ),
    ],
    [
      'three known links spanning exactly a second',
      false,
      () =>
        burst(
          LINK_B,
          500,
          [
            [LINK_A, 0],
            [LINK_C, SAME_SECOND_MS],
          ],
          3,
        ),
    ],
    [
      'three links spread over 1.5 s with three known',
      false,
      () =>
        burst(
          LINK_B,
          0,
          [
            [LINK_A, -800],
            [LINK_C, 700],
          ],
          3,
        ),
    ],
    ['two links in a one-link count (never fewer than two)', true, () => burst(LINK_B, 400, [[LINK_A, 0]], 1)],
    [
      'a burst of earlier clicks without this click',
      false,
      () =>
        burst(LINK_C, 5_000, [
          [LINK_A, 0],
          [LINK_B, 100],
        ]),
    ],
  ])('%s → machine: %s', (_case, isBot, verdict) => {
    expect(verdict()).toEqual(isBot ? bot('all_links_same_second') : human);
  });
});

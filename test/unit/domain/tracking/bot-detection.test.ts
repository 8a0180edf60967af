import { describe, expect, it } from 'vitest';
import { classifyEngagement, TOO_FAST_MS } from '../../../../shared/domain/tracking/bot-detection.js';

const DELIVERED = '2026-03-02T09:00:00.000Z';
const after = (ms: number) => new Date(Date.parse(DELIVERED) + ms).toISOString();
const MINUTE_LATER = after(60_000);

/** Real user agents of people reading mail. */
const PEOPLE = {
  'desktop Chrome': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'iPhone Mail': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Outlook desktop': 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)',
  'Gmail web (Firefox)': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
  'Android Chrome': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36',
};

describe('classifyEngagement: people', () => {
  it.each(Object.entries(PEOPLE))('takes an open and a click from %s a minute after delivery for a person', (_name, userAgent) => {
    expect(classifyEngagement({ kind: 'open', userAgent, occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({ is_bot: false });
    expect(classifyEngagement({ kind: 'click', userAgent, url: 'https://acme.test/a', occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({
      is_bot: false,
    });
  });

  it('does not take a missing user agent for a machine by itself', () => {
    expect(classifyEngagement({ kind: 'click', occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({ is_bot: false });
  });
});

describe('classifyEngagement: machines, one signal each', () => {
  it('trusts the provider flag first', () => {
    expect(classifyEngagement({ kind: 'open', userAgent: PEOPLE['desktop Chrome'], occurredAt: MINUTE_LATER, sesBotFlag: true })).toEqual({
      is_bot: true,
      reason: 'ses_flag',
    });
  });

  it.each([
    ['Barracuda', 'Mozilla/5.0 (compatible; Barracuda Sentinel (EE))'],
    ['Mimecast', 'Mozilla/5.0 (compatible; Mimecast URL Protect)'],
    ['Proofpoint', 'ppops-0a1b2c3d-4e5f (Proofpoint URL Defense)'],
    ['Cisco IronPort', 'Mozilla/5.0 (compatible; Cisco IronPort URL Filtering)'],
    ['Symantec MessageLabs', 'Mozilla/4.0 (compatible; MessageLabs Link Scanner)'],
    ['BingPreview', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) BingPreview/1.0b'],
    ['python-requests', 'python-requests/2.31.0'],
    ['Python urllib', 'Python-urllib/3.11'],
    ['Go', 'Go-http-client/1.1'],
    ['curl', 'curl/8.5.0'],
    ['Wget', 'Wget/1.21.4'],
    ['Java', 'Java/17.0.9'],
    ['okhttp', 'okhttp/4.12.0'],
    ['axios', 'axios/1.6.8'],
    ['headless Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36'],
  ])('flags %s as a security scanner or HTTP client', (_name, userAgent) => {
    expect(classifyEngagement({ kind: 'click', userAgent, url: 'https://acme.test/a', occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({
      is_bot: true,
      reason: 'security_scanner',
    });
  });

  it("flags an open through Apple Mail Privacy Protection (the proxy's bare user agent) apart from other machines", () => {
    expect(classifyEngagement({ kind: 'open', userAgent: 'Mozilla/5.0', occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({
      is_bot: true,
      reason: 'apple_mail_privacy',
    });
  });

  it.each([
    ['Gmail', 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'],
    ['Yahoo', 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html'],
  ])('flags a %s image proxy open', (_name, userAgent) => {
    expect(classifyEngagement({ kind: 'open', userAgent, occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({
      is_bot: true,
      reason: 'image_proxy',
    });
  });

  it('flags crawlers the isbot library knows', () => {
    const userAgent = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    expect(classifyEngagement({ kind: 'click', userAgent, occurredAt: MINUTE_LATER, deliveredAt: DELIVERED })).toEqual({
      is_bot: true,
      reason: 'isbot_user_agent',
    });
  });

  it.each([
    ['just inside the window', TOO_FAST_MS - 1, true],
    ['at the window', TOO_FAST_MS, false],
    ['at the delivery instant', 0, true],
  ])('takes a click %s after the delivery for too fast: %s', (_case, ms, bot) => {
    const verdict = classifyEngagement({ kind: 'click', userAgent: PEOPLE['desktop Chrome'], url: 'https://acme.test/a', occurredAt: after(ms), deliveredAt: DELIVERED });
    expect(verdict).toEqual(bot ? { is_bot: true, reason: 'too_fast' } : { is_bot: false });
  });

  it('times a click from the send when the delivery is not known yet', () => {
    expect(classifyEngagement({ kind: 'click', userAgent: PEOPLE['desktop Chrome'], occurredAt: after(2_000), sentAt: DELIVERED })).toEqual({
      is_bot: true,
      reason: 'too_fast',
    });
  });

  it('takes every link of a message clicked within one second for a scanner walking the links', () => {
    const verdict = classifyEngagement({
      kind: 'click',
      userAgent: PEOPLE['desktop Chrome'],
      url: 'https://acme.test/b',
      occurredAt: after(600_400),
      deliveredAt: DELIVERED,
      otherClicks: [{ occurredAt: after(600_000), url: 'https://acme.test/a' }],
    });
    expect(verdict).toEqual({ is_bot: true, reason: 'all_links_same_second' });
  });

  it('takes the same link clicked twice, or two links seconds apart, for a person', () => {
    const base = { kind: 'click' as const, userAgent: PEOPLE['desktop Chrome'], deliveredAt: DELIVERED };
    expect(
      classifyEngagement({ ...base, url: 'https://acme.test/a', occurredAt: after(600_300), otherClicks: [{ occurredAt: after(600_000), url: 'https://acme.test/a' }] }),
    ).toEqual({ is_bot: false });
    expect(
      classifyEngagement({ ...base, url: 'https://acme.test/b', occurredAt: after(603_000), otherClicks: [{ occurredAt: after(600_000), url: 'https://acme.test/a' }] }),
    ).toEqual({ is_bot: false });
  });
});

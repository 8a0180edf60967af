import { isbot } from 'isbot';

/**
 * Tells machine opens and clicks from people's (issue 9 §3). Every event is logged with `is_bot` and, for a machine,
 * the signal that decided it (`bot_reason`, shown apart); machine events never count in the contact's figures and
 * never unsubscribe. Signals, in the order checked:
 * - `ses_flag` — the provider marks the event as automated (read when the event carries such a flag).
 * - `security_scanner` — mail security gateways and link scanners that fetch every link and pixel before the person
 *   sees the mail (Barracuda, Mimecast, Proofpoint, Cisco IronPort, Symantec/Broadcom MessageLabs, Trend Micro,
 *   Sophos, FireEye/Trellix, Forcepoint, BingPreview), and plain HTTP clients no person reads mail with
 *   (python-requests, urllib, aiohttp, Go-http-client, curl, Wget, Java, okhttp, axios, node-fetch, libwww-perl,
 *   Scrapy, HeadlessChrome, PhantomJS) — the table below, one signature each. Microsoft Defender Safe Links
 *   detonates links with an ordinary desktop browser user agent from Microsoft's ranges: no user agent rule can tell
 *   it, the timing rules below catch it.
 * - `apple_mail_privacy` — Apple Mail Privacy Protection (iOS 15+/macOS 12+) preloads every image through Apple's
 *   proxy at delivery, whether the person reads the mail or not; its requests carry the bare user agent
 *   `Mozilla/5.0`. An open only: a machine open, shown apart (its share of "opens" is large).
 * - `image_proxy` — webmail image proxies fetching the pixel on the person's behalf, once, often before reading:
 *   GoogleImageProxy (Gmail), YahooMailProxy. Opens only.
 * - `isbot_user_agent` — the `isbot` library's list of crawlers and automation user agents.
 * - `too_fast` — a click within TOO_FAST_MS of the delivery (of the send, when the delivery is not known yet): no
 *   person opens, reads and clicks in five seconds; scanners do.
 * - `all_links_same_second` — this click and the e-mail's earlier clicks cover two or more different links within
 *   one second: a scanner walking every link.
 * No user agent at all is not a signal by itself: SES omits it when the client sent none, which some real mail
 * apps do. Trade-off: a person behind a scanner that rewrites links (Safe Links, Mimecast) may lose a real click to
 * `too_fast` or be flagged with the scanner; we accept under-counting people to not count machines — nothing is
 * hidden, the logs keep every event.
 */
export const BOT_REASONS = [
  'ses_flag',
  'security_scanner',
  'apple_mail_privacy',
  'image_proxy',
  'isbot_user_agent',
  'too_fast',
  'all_links_same_second',
] as const;
export type BotReason = (typeof BOT_REASONS)[number];

/** Five seconds: a click this soon after the delivery is a machine's. */
export const TOO_FAST_MS = 5_000;

/** Security gateways and HTTP clients, each with where its signature is documented or observed. */
const SCANNER_SIGNATURES: ReadonlyArray<{ pattern: RegExp; source: string }> = [
  { pattern: /barracuda/i, source: 'Barracuda Email Security Gateway link protection' },
  { pattern: /mimecast/i, source: 'Mimecast URL Protect' },
  { pattern: /proofpoint|ppops-/i, source: 'Proofpoint URL Defense / TAP sandbox' },
  { pattern: /ironport|cisco[- ]?(secure|email)/i, source: 'Cisco IronPort / Secure Email' },
  { pattern: /messagelabs|symantec|broadcom/i, source: 'Symantec (Broadcom) Email Security.cloud' },
  { pattern: /trend ?micro|tmufe/i, source: 'Trend Micro Email Security' },
  { pattern: /sophos/i, source: 'Sophos Email' },
  { pattern: /fireeye|trellix/i, source: 'FireEye / Trellix Email Security' },
  { pattern: /forcepoint|websense/i, source: 'Forcepoint Email Security' },
  { pattern: /bingpreview/i, source: 'Microsoft BingPreview (link previews, Outlook.com)' },
  { pattern: /python-requests|python-urllib|aiohttp|httpx\//i, source: 'Python HTTP clients' },
  { pattern: /go-http-client/i, source: 'Go net/http default user agent' },
  { pattern: /^curl\/|^wget\//i, source: 'curl, GNU Wget' },
  { pattern: /^java\/|okhttp|apache-httpclient/i, source: 'Java HTTP clients' },
  { pattern: /axios\/|node-fetch|undici/i, source: 'Node.js HTTP clients' },
  { pattern: /libwww-perl|scrapy/i, source: 'Perl LWP, Scrapy' },
  { pattern: /headlesschrome|phantomjs/i, source: 'headless browsers' },
];

const IMAGE_PROXIES = /googleimageproxy|yahoomailproxy/i;
/** Apple's Mail Privacy Protection proxy sends exactly this. */
const APPLE_PROXY_USER_AGENT = 'Mozilla/5.0';

export interface EngagementInput {
  kind: 'open' | 'click';
  userAgent?: string;
  ipAddress?: string;
  url?: string;
  occurredAt: string;
  deliveredAt?: string;
  sentAt?: string;
  sesBotFlag?: boolean;
  /** The e-mail's earlier clicks. */
  otherClicks?: ReadonlyArray<{ occurredAt: string; url?: string }>;
}

export interface EngagementVerdict {
  is_bot: boolean;
  reason?: BotReason;
}

export function classifyEngagement(input: EngagementInput): EngagementVerdict {
  const bot = (reason: BotReason): EngagementVerdict => ({ is_bot: true, reason });
  const ua = input.userAgent?.trim() ?? '';
  if (input.sesBotFlag === true) return bot('ses_flag');
  if (ua && SCANNER_SIGNATURES.some((s) => s.pattern.test(ua))) return bot('security_scanner');
  if (input.kind === 'open' && ua === APPLE_PROXY_USER_AGENT) return bot('apple_mail_privacy');
  if (input.kind === 'open' && IMAGE_PROXIES.test(ua)) return bot('image_proxy');
  if (ua && isbot(ua)) return bot('isbot_user_agent');
  if (input.kind === 'click') {
    const at = Date.parse(input.occurredAt);
    const reference = Date.parse(input.deliveredAt ?? input.sentAt ?? '');
    if (!Number.isNaN(reference) && at - reference >= 0 && at - reference < TOO_FAST_MS) return bot('too_fast');
    const sameSecond = (input.otherClicks ?? []).filter((c) => Math.abs(Date.parse(c.occurredAt) - at) < 1_000);
    const links = new Set([input.url, ...sameSecond.map((c) => c.url)].filter(Boolean));
    if (links.size >= 2) return bot('all_links_same_second');
  }
  return { is_bot: false };
}

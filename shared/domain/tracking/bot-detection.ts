import { BlockList, isIP } from 'node:net';
import { isbot } from 'isbot';

/**
 * Tells machine opens and clicks from people's. Pure: the caller passes the event and what it knows of
 * the e-mail. Every event is logged with `is_bot` and, for a machine, the signal that decided it (`bot_reason`); a
 * machine event never counts in the contact's figures and never unsubscribes, but it is never hidden either.
 *
 * Signals, in the order checked (the first that fires is the reason):
 * 1. `ses_flag` — the notification itself marks the event as automated.
 * 2. `security_scanner` — mail security gateways that fetch every pixel and link before the person sees the mail, and
 *    plain HTTP clients no person reads mail with: SCANNER_USER_AGENTS (one row per signature, with its source) and
 *    SCANNER_NETWORKS (Microsoft Exchange Online Protection, where Defender for Office 365 Safe Links / Safe
 *    Attachments detonate links with an ordinary Chrome user agent, so only the network gives them away).
 * 3. `apple_mail_privacy` — Apple Mail Privacy Protection (iOS 15+, macOS 12+) preloads every remote image through
 *    Apple's proxy whether or not the person reads the mail, with the bare user agent `Mozilla/5.0` (ua-parser/uap-core
 *    #509, since 2021-09-20). Opens only; kept apart from other machines because it is a large share of all opens.
 * 4. `image_proxy` — mailbox image proxies fetching the pixel on the recipient's behalf (Gmail's GoogleImageProxy,
 *    YahooMailProxy, Shortwave). Opens only. The fetch may follow a real read, but nothing tells which: counted as a
 *    machine, shown apart so a report can add these opens back.
 * 5. `isbot_user_agent` — the `isbot` library's crawler and automation patterns. Checked after 3 and 4 on purpose:
 *    isbot also matches `Mozilla/5.0` and both proxies, which would hide the more precise reason.
 * 6. `too_fast` — a click at most TOO_FAST_MS after the delivery (after the send while no delivery is known), or
 *    before it (a gateway that scans during the SMTP transaction clicks before SES records the delivery). No person
 *    opens, reads and clicks within five seconds; scanners do so within one.
 * 7. `all_links_same_second` — this click and the e-mail's earlier clicks cover at least two different links (every
 *    link, when the e-mail's link count is known) within one second: a scanner walking the links. A person clicks one
 *    link, or several seconds apart. Judged when a click arrives, so the first click of a burst keeps its verdict.
 *
 * No user agent at all is not a signal by itself: SES leaves the field out when the request carried none, which
 * privacy-minded clients and corporate proxies that strip headers also do for real people; the network and timing
 * rules still apply to such an event.
 *
 * Trade-off: every rule moves events from "person" to "machine", never back. A person clicking within five seconds of
 * delivery is rare. Corporate users lose real clicks: behind Safe Links a click made while the message is still being
 * scanned falls in the burst, and behind Mimecast or Proofpoint browser isolation the click reaches us from the
 * vendor's cloud under its name. We accept under-counting people rather than counting machines as engagement — and we
 * log, never hide: the event stays in the e-mail's logs with its reason.
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

/** A click at most this long after the delivery is a machine's. */
export const TOO_FAST_MS = 5_000;
/** Clicks on different links closer together than this form one burst. */
export const SAME_SECOND_MS = 1_000;

interface Signature {
  name: string;
  pattern: RegExp;
}

/**
 * User agents of security scanners and HTTP libraries, each with where it is documented or observed. Gateways rarely
 * document their scanner's user agent: a vendor row matches when the scanner names itself, the rest of their traffic
 * is caught by network or timing. No browser or mail client a person uses carries any of these tokens.
 */
export const SCANNER_USER_AGENTS: readonly Signature[] = [
  // Barracuda Link Protection follows every link (campus.barracuda.com, "Understanding Link Protection");
  // "Barracuda Sentinel (EE)" is in isbot's own pattern list.
  { name: 'Barracuda', pattern: /barracuda/i },
  // Mimecast URL Protect (links rewritten to protect-*.mimecast.com), when it names itself.
  { name: 'Mimecast', pattern: /mimecast/i },
  // Proofpoint URL Defense / TAP; ppops.net is the domain of its filtering hosts (Received headers of pphosted.com).
  { name: 'Proofpoint', pattern: /proofpoint|ppops/i },
  // Cisco Secure Email, formerly IronPort (links rewritten to secure-web.cisco.com).
  { name: 'Cisco IronPort', pattern: /ironport|cisco ?secure ?email/i },
  // Symantec (Broadcom) Email Security.cloud, formerly MessageLabs.
  { name: 'Symantec MessageLabs', pattern: /messagelabs|symantec/i },
  // Trend Micro Email Security (TMES) web reputation checks.
  { name: 'Trend Micro', pattern: /trend ?micro|\btmes\b/i },
  // Sophos Email time-of-click URL protection.
  { name: 'Sophos', pattern: /sophos/i },
  // FireEye (now Trellix) Email Security URL detonation.
  { name: 'FireEye', pattern: /fireeye|trellix/i },
  // Forcepoint (formerly Websense) Email Security.
  { name: 'Forcepoint', pattern: /forcepoint|websense/i },
  // Bing link previews, also run for Outlook.com (bing.com/webmaster, "Which crawlers does Bing use").
  { name: 'BingPreview', pattern: /bingpreview/i },
  // HTTP libraries' default user agents (each library's documentation): python-requests/2.31.0, Python-urllib/3.11,
  // Python/3.11 aiohttp/3.9.1, Go-http-client/1.1, curl/8.5.0, Wget/1.21.4, Java/17.0.9 (HttpURLConnection),
  // okhttp/4.12.0, axios/1.6.8, node-fetch/1.0 (+https://github.com/bitinn/node-fetch), libwww-perl/6.72.
  { name: 'python-requests', pattern: /python-requests\//i },
  { name: 'python-urllib', pattern: /python-urllib\//i },
  { name: 'aiohttp', pattern: /aiohttp\//i },
  { name: 'Go', pattern: /go-http-client\//i },
  { name: 'curl', pattern: /^curl\//i },
  { name: 'Wget', pattern: /^wget\//i },
  { name: 'Java', pattern: /(^|\s)java\/\d/i },
  { name: 'okhttp', pattern: /okhttp\//i },
  { name: 'axios', pattern: /axios\//i },
  { name: 'node-fetch', pattern: /node-fetch/i },
  { name: 'libwww-perl', pattern: /libwww-perl\//i },
  // Headless Chrome (developers.google.com, "Getting started with Headless Chrome"): sandbox detonation.
  { name: 'HeadlessChrome', pattern: /headlesschrome/i },
];

/**
 * Networks that only ever filter mail: Exchange Online Protection, as Microsoft publishes it (learn.microsoft.com,
 * "Microsoft 365 URLs and IP address ranges", Exchange Online IDs 9–10, `*.mail.protection.outlook.com`; the same set
 * as spf.protection.outlook.com). Defender for Office 365 (Safe Links, Safe Attachments) requests links from them at
 * delivery with an ordinary desktop Chrome user agent (gophish #973: 40.107.218.12; opencollective #3656:
 * 40.107.235.x). Exchange Online's other ranges are deliberately left out: Outlook on the web serves real readers
 * from them.
 */
export const SCANNER_NETWORKS: readonly string[] = [
  '40.92.0.0/15',
  '40.107.0.0/16',
  '52.100.0.0/14',
  '104.47.0.0/17',
  '2a01:111:f400::/48',
  '2a01:111:f403::/48',
];

const scannerNetworks = new BlockList();
for (const cidr of SCANNER_NETWORKS) {
  const [address = '', prefix] = cidr.split('/');
  scannerNetworks.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Mailbox image proxies, each with where its user agent is documented. */
const IMAGE_PROXY_USER_AGENTS: readonly Signature[] = [
  // Gmail, since 2013: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)".
  { name: 'Gmail', pattern: /googleimageproxy/i },
  // "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html".
  { name: 'Yahoo Mail', pattern: /yahoomailproxy/i },
  // "Shortwave Image Fetcher" (shortwave.com mail client; listed in monperrus/crawler-user-agents).
  { name: 'Shortwave', pattern: /shortwave image fetcher/i },
];

/** The whole user agent Apple's Mail Privacy Protection proxy sends. */
const APPLE_PROXY_USER_AGENT = 'Mozilla/5.0';

export interface EngagementInput {
  kind: 'open' | 'click';
  userAgent?: string;
  ipAddress?: string;
  url?: string;
  /** ISO 8601 times. */
  occurredAt: string;
  deliveredAt?: string;
  sentAt?: string;
  sesBotFlag?: boolean;
  /** The e-mail's earlier clicks (any verdict). */
  otherClicks?: ReadonlyArray<{ occurredAt: string; url?: string }>;
  /** Distinct links in the e-mail, when known. */
  linkCount?: number;
}

export interface EngagementVerdict {
  is_bot: boolean;
  reason?: BotReason;
}

/** Whether an SES Open or Click event is a machine's, and which signal says so (first match, in BOT_REASONS order). */
export function classifyEngagement(input: EngagementInput): EngagementVerdict {
  const reason = firstReason(input);
  return reason ? { is_bot: true, reason } : { is_bot: false };
}

function firstReason(input: EngagementInput): BotReason | undefined {
  const ua = input.userAgent?.trim() ?? '';
  if (input.sesBotFlag === true) return 'ses_flag';
  if (matches(SCANNER_USER_AGENTS, ua) || fromScannerNetwork(input.ipAddress)) return 'security_scanner';
  if (input.kind === 'open' && ua === APPLE_PROXY_USER_AGENT) return 'apple_mail_privacy';
  if (input.kind === 'open' && matches(IMAGE_PROXY_USER_AGENTS, ua)) return 'image_proxy';
  if (ua && isbot(ua)) return 'isbot_user_agent';
  if (input.kind !== 'click') return undefined;
  if (clickedTooFast(input)) return 'too_fast';
  if (walkedTheLinks(input)) return 'all_links_same_second';
  return undefined;
}

const matches = (table: readonly Signature[], ua: string) => ua !== '' && table.some((s) => s.pattern.test(ua));

function fromScannerNetwork(ip: string | undefined): boolean {
  const address = ip?.trim() ?? '';
  const version = isIP(address);
  return version !== 0 && scannerNetworks.check(address, version === 6 ? 'ipv6' : 'ipv4');
}

function time(iso: string | undefined): number | undefined {
  const ms = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function clickedTooFast(input: EngagementInput): boolean {
  const at = time(input.occurredAt);
  const reference = time(input.deliveredAt) ?? time(input.sentAt);
  return at !== undefined && reference !== undefined && at - reference <= TOO_FAST_MS;
}

/** Some window of SAME_SECOND_MS holding this click covers at least max(2, linkCount) distinct links. */
function walkedTheLinks(input: EngagementInput): boolean {
  const at = time(input.occurredAt);
  if (at === undefined || !input.url) return false;
  const burst = [{ at, url: input.url }];
  for (const other of input.otherClicks ?? []) {
    const otherAt = time(other.occurredAt);
    const near = otherAt !== undefined && Math.abs(otherAt - at) < SAME_SECOND_MS;
    if (near && other.url) burst.push({ at: otherAt, url: other.url });
  }
  const needed = Math.max(2, input.linkCount ?? 0);
  const linksFrom = (start: number) =>
    new Set(burst.filter((c) => c.at >= start && c.at < start + SAME_SECOND_MS).map((c) => c.url)).size;
  return burst.some((c) => c.at <= at && linksFrom(c.at) >= needed);
}

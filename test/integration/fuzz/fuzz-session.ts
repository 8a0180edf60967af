import { isDeepStrictEqual } from 'node:util';
import { API_BASE_PATH } from '../../../functions/routes.js';
import { checkContract } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { cookieOf, createAccountClient, signIn, type Session } from '../support/sessions.js';
import { clientSnapshot, type ClientSnapshot } from '../support/client-snapshot.js';
import { answerProblems } from './envelope-check.js';
import { sendRaw, type RawAnswer } from './raw-request.js';

/** How a probe authenticates; `{key}` in a spelling stands for the session client's current key. */
export type Credentials =
  | { kind: 'client-key'; spelled?: string; alsoSent?: string | string[] }
  | { kind: 'none' }
  | { kind: 'raw'; authorization: string | string[] }
  /**
   * The signed-in owner's browser (`openSignedIn`): its cookies, with `cookie` in place of the session id
   * when given, and the CSRF header echoing the cookie (`echo`), left out (`none`) or as given.
   */
  | { kind: 'session'; csrf: 'echo' | 'none' | string | string[]; cookie?: string };

export interface Probe {
  method: string;
  /** Below `/api/v1`, as sent on the wire. */
  path: string;
  credentials: Credentials;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
  /** A root route (public links): the path is from the API's root. */
  root?: boolean;
  /**
   * A route that answers HTML pages or files: below 500 and a page or a file (or the envelope, for what the server
   * refuses itself).
   */
  html?: boolean;
  /** A route that answers its success as a JSON document of its own (the OpenAPI document), not in the envelope. */
  bareJson?: boolean;
}

/**
 * One fresh client probing the API one request at a time. Every answer must be below 500 and the envelope; a refused
 * request (4xx, 5xx or no answer) must leave the client's items exactly as they were. A successful one may write:
 * its snapshot becomes the next baseline.
 */
export class FuzzSession {
  /** Requests sent so far. */
  sent = 0;

  private constructor(
    private readonly clientId: number,
    private key: string,
    private baseline: ClientSnapshot,
    private readonly browser?: Session,
  ) {}

  static async open(): Promise<FuzzSession> {
    const client = await createTestClient();
    return new FuzzSession(client.id, client.api_key, await clientSnapshot(client.id));
  }

  /** A client whose owner is signed in: probes may use its session (`{ kind: 'session' }`) as well as its key. */
  static async openSignedIn(): Promise<FuzzSession> {
    const client = await createAccountClient('growth');
    const browser = await signIn(client.email);
    return new FuzzSession(client.id, client.api_key, await clientSnapshot(client.id), browser);
  }

  /** Sends the probe and throws a readable report (long values cut) when the answer breaks a rule. */
  async probe(probe: Probe): Promise<RawAnswer> {
    const authorization = this.authorization(probe.credentials);
    const headers = {
      ...probe.headers,
      ...(authorization === undefined ? {} : { authorization }),
      ...this.browserHeaders(probe.credentials),
    };
    const answer = await sendRaw({
      method: probe.method,
      path: probe.path,
      headers,
      body: probe.body,
      root: probe.root,
    });
    this.sent += 1;
    const exempt =
      (probe.html && (isHtmlPage(answer) || isServedFile(answer))) ||
      (probe.bareJson && answer.status >= 200 && answer.status < 300);
    const problems = exempt ? [] : answerProblems(answer);
    if (answer.status > 0) {
      // Every answer is a contract test too: a status the document declares for the operation, a body its schema accepts.
      const path = probe.root ? probe.path : `${API_BASE_PATH}${probe.path}`;
      await checkContract({
        method: probe.method,
        path,
        status: answer.status,
        contentType: answer.contentType ?? '',
        text: answer.text,
      }).catch((error: Error) => problems.push(error.message));
    }
    const after = await clientSnapshot(this.clientId);
    if (answer.status === 0 || answer.status >= 400) {
      const written = changedItems(this.baseline, after);
      if (written.length > 0) problems.push(`refused with ${answer.status} but wrote ${written.join(', ')}`);
    } else {
      this.adoptRotatedKey(answer);
    }
    this.baseline = after;
    if (problems.length > 0) throw new Error(report(problems, probe, answer));
    return answer;
  }

  /** The cookies (and CSRF header) of a session probe; nothing for the others. */
  private browserHeaders(credentials: Credentials): Record<string, string | string[]> {
    if (credentials.kind !== 'session') return {};
    if (!this.browser) throw new Error('a session probe needs FuzzSession.openSignedIn()');
    const sessionId = credentials.cookie ?? cookieOf(this.browser.setCookies, 'els_session')!;
    const cookie = `els_session=${sessionId}; els_csrf=${this.browser.csrf}`;
    if (credentials.csrf === 'none') return { cookie };
    return { cookie, 'x-csrf-token': credentials.csrf === 'echo' ? this.browser.csrf : credentials.csrf };
  }

  private authorization(credentials: Credentials): string | string[] | undefined {
    const withKey = (text: string) => text.replaceAll('{key}', this.key);
    switch (credentials.kind) {
      case 'none':
      case 'session':
        return undefined;
      case 'raw':
        return credentials.authorization;
      case 'client-key': {
        const own = withKey(credentials.spelled ?? 'Bearer {key}');
        return credentials.alsoSent === undefined ? own : [own, ...[credentials.alsoSent].flat()];
      }
    }
  }

  /** A successful rotation hands back the new key; the old one stops working at once. */
  private adoptRotatedKey(answer: RawAnswer): void {
    // Pages and files (the API reference) carry no key.
    if (!/json/i.test(answer.contentType ?? '')) return;
    const { data } = JSON.parse(answer.text) as { data?: { key?: unknown; masked_key?: unknown } };
    if (typeof data?.key === 'string' && typeof data.masked_key === 'string') this.key = data.key;
  }
}

/**
 * `pk sk` of every item added, removed or changed between two snapshots. An API key's `last_used_at` is left out: the
 * authenticator stamps a key's use (at most once an hour) whatever the request's outcome — a use of the
 * credential, not a write of the request.
 */
function changedItems(before: ClientSnapshot, after: ClientSnapshot): string[] {
  const withoutUse = ({ last_used_at: _used, ...item }: Record<string, unknown>) => item;
  const index = (snapshot: ClientSnapshot) =>
    new Map(
      [...snapshot.items, ...snapshot.apiKeys.map(withoutUse)].map((item) => [
        `${String(item['pk'])} ${String(item['sk'])}`,
        item,
      ]),
    );
  const [was, is] = [index(before), index(after)];
  return [...new Set([...was.keys(), ...is.keys()])].filter((id) => !isDeepStrictEqual(was.get(id), is.get(id)));
}

function report(problems: string[], probe: Probe, answer: RawAnswer): string {
  const lines = [`${probe.method} /api/v1${cut(probe.path)}`, `credentials: ${cut(JSON.stringify(probe.credentials))}`];
  for (const [name, value] of Object.entries(probe.headers ?? {})) lines.push(`${name}: ${cut(JSON.stringify(value))}`);
  if (probe.body !== undefined) {
    lines.push(
      `body: ${cut(JSON.stringify(typeof probe.body === 'string' ? probe.body : Buffer.from(probe.body).toString('latin1')))}`,
    );
  }
  lines.push(`→ ${answer.status} ${cut(answer.text)}`);
  return `${problems.join('; ')}\n  ${lines.join('\n  ')}`;
}

function cut(text: string): string {
  return text.length <= 240 ? text : `${text.slice(0, 160)}…${text.slice(-40)} (${text.length} chars)`;
}

/** An HTML page below 500 (the public links' answers, including their 404 page; the API reference). */
function isHtmlPage(answer: RawAnswer): boolean {
  return answer.status > 0 && answer.status < 500 && answer.text.trimStart().startsWith('<!DOCTYPE html>');
}

/** A file below 500 (the API reference's script, styles, or its plain-text 404): anything but JSON. */
function isServedFile(answer: RawAnswer): boolean {
  return answer.status > 0 && answer.status < 500 && /^text\/(javascript|css|plain)\b/.test(answer.contentType ?? '');
}

import { randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, inject } from 'vitest';
import { API_BASE_PATH } from '../../../functions/routes.js';
import { createContainer } from '../../../shared/composition/container.js';
import { clientAdminDeps } from '../../../shared/composition/providers/client-admin.js';
import { loadConfig } from '../../../shared/config.js';
import { addUser } from '../../../shared/domain/users/manage-users.js';
import type { Role } from '../../../shared/domain/users/roles.js';
import { createClient, type CreatedClient } from '../../../shared/domain/clients/create-client.js';
import { MAX_REQUESTS_PER_SECOND, setClientRateLimits } from '../../../shared/domain/rate-limits/set-rate-limits.js';
import { type PlanTier, verifyTestDomain } from './clients.js';
import { checkContract, type EnvelopeBody } from './api.js';
import { awaitSesMailsTo, sesMailsTo } from './ses-mailbox.js';

/** A raw answer: status, headers (Set-Cookie as a list), body text and, when JSON, the envelope. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  text: string;
  body: EnvelopeBody;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** A form-encoded body instead (a page's form post). */
  form?: Record<string, string>;
  /**
   * The client's address: every test signs in from loopback addresses of its own (127.x.y.z), so the sign-in limit per
   * IP (30 in 15 minutes) is one test's, not the whole run's.
   */
  from?: string;
}

/** A loopback address nobody else in the run uses (in all likelihood). */
export const ownLoopbackAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/**
 * One HTTP request to the shared runtime below `/api/v1` (or, with a leading `!`, from the root), redirects not
 * followed; its answer is checked against the OpenAPI document like every other.
 */
export function raw(method: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const url = new URL(path.startsWith('!') ? path.slice(1) : `${API_BASE_PATH}${path}`, inject('baseUrl'));
  const payload = options.form
    ? new URLSearchParams(options.form).toString()
    : options.body === undefined
      ? undefined
      : JSON.stringify(options.body);
  const type = options.form ? 'application/x-www-form-urlencoded' : 'application/json';
  const headers: Record<string, string> = { ...(payload ? { 'content-type': type } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: options.from ?? '127.0.0.1' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const flat = Object.fromEntries(
          Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        let body = {} as EnvelopeBody;
        try {
          body = JSON.parse(text) as EnvelopeBody;
        } catch {
          // Pages and redirects are HTML.
        }
        checkContract({
          method,
          path: url.pathname,
          status: res.statusCode ?? 0,
          contentType: flat['content-type'] ?? '',
          text,
        })
          .then(() =>
            resolve({
              status: res.statusCode ?? 0,
              headers: flat,
              setCookies: res.headers['set-cookie'] ?? [],
              text,
              body,
            }),
          )
          .catch(reject);
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A signed-in browser: the Cookie header it sends and the CSRF token its script echoes. */
export interface Session {
  cookie: string;
  csrf: string;
  setCookies: string[];
}

/** The cookie `name`'s value in a list of Set-Cookie values. */
export const cookieOf = (setCookies: readonly string[], name: string): string | undefined =>
  setCookies
    .map((c) => c.split(';')[0]!)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** The sign-in link of the newest mail to `email` (after `count` mails arrived). */
export async function signInLinkOf(email: string, count = 1): Promise<string> {
  const mails = await awaitSesMailsTo(email, count);
  const mail = mails.sort((a, b) => a.at - b.at)[mails.length - 1]!;
  const link = /http\S*\/auth\/callback\?token=[A-Za-z0-9_-]+/.exec(mail.body.text ?? '')?.[0];
  if (!link) throw new Error(`no sign-in link in the mail to ${email}: ${mail.body.text}`);
  return link;
}

/** Opens a link of a mail (the callback's page, GET) as a browser holding `cookie` would; nothing is consumed. */
export const openLink = (link: string, from?: string, cookie?: string): Promise<RawResponse> => {
  const url = new URL(link);
  return raw('GET', `!${url.pathname}${url.search}`, { from, ...(cookie ? { headers: { cookie } } : {}) });
};

/** The token of a sign-in link. */
export const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';

/**
 * Presses the "Sign in" button of the callback page: POST /auth/callback with the token (and `confirm=yes` when the
 * page asked), from this origin, with the browser's cookies; redirects not followed.
 */
export function pressSignIn(
  link: string,
  options: { cookie?: string; confirm?: boolean; from?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const form: Record<string, string> = { token: tokenOf(link), ...(options.confirm ? { confirm: 'yes' } : {}) };
  return raw('POST', '/auth/callback', {
    form,
    from: options.from,
    headers: {
      'sec-fetch-site': 'same-origin',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
  });
}

/** The sign-in binding cookie a POST /auth/sign-in answer set, as a Cookie header (`els_signin=…`). */
export const bindingCookieOf = (setCookies: readonly string[]): string =>
  `els_signin=${cookieOf(setCookies, 'els_signin') ?? ''}`;

/** The session a callback answer started. */
export function sessionOf(answer: RawResponse): Session {
  const session = cookieOf(answer.setCookies, 'els_session');
  const csrf = cookieOf(answer.setCookies, 'els_csrf');
  if (!session || !csrf)
    throw new Error(`the callback set no session (${answer.status}): ${answer.setCookies.join(' | ')}`);
  return { cookie: `els_session=${session}; els_csrf=${csrf}`, csrf, setCookies: answer.setCookies };
}

/**
 * Signs `email` in as a browser would: asks for a link (keeping the binding cookie), opens the link from the SES
 * mailbox (the page) and presses its button.
 */
export async function signIn(email: string): Promise<Session> {
  const before = (await sesMailsTo(email)).length;
  const from = ownLoopbackAddress();
  const asked = await raw('POST', '/auth/sign-in', { body: { email }, from });
  expect(asked.status).toBe(202);
  const cookie = bindingCookieOf(asked.setCookies);
  const link = await signInLinkOf(email, before + 1);
  expect((await openLink(link, from, cookie)).status).toBe(200);
  const answer = await pressSignIn(link, { cookie, from });
  expect(answer.status).toBe(303);
  return sessionOf(answer);
}

/** A request made with a session: the cookies, and on a change the CSRF header (unless `csrf: false`). */
export function asSession(
  session: Session,
  method: string,
  path: string,
  options: RawOptions & { csrf?: boolean } = {},
): Promise<RawResponse> {
  const unsafe = !['GET', 'HEAD'].includes(method);
  return raw(method, path, {
    ...options,
    headers: {
      cookie: session.cookie,
      ...(unsafe && options.csrf !== false ? { 'x-csrf-token': session.csrf } : {}),
      ...options.headers,
    },
  });
}

let deps: ReturnType<typeof clientAdminDeps> | undefined;
const storeDeps = () =>
  (deps ??= clientAdminDeps(
    createContainer({
      config: loadConfig({
        ...process.env,
        AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
        TABLE_NAME: inject('tableName'),
      }),
    }),
  ));

/**
 * A client made as the admin CLI makes one, with its owner's address (and the highest rate limit and a verified
 * domain, as createTestClient).
 */
export async function createAccountClient(plan: PlanTier): Promise<CreatedClient & { email: string; plan: PlanTier }> {
  const tag = randomInt(1e12);
  const email = `owner-${tag}@test.example`;
  const created = await createClient(storeDeps(), { email, name: `Account ${email}`, plan });
  await Promise.all([
    setClientRateLimits(storeDeps(), created.id, {
      api_requests_per_second: MAX_REQUESTS_PER_SECOND,
      event_requests_per_second: MAX_REQUESTS_PER_SECOND,
    }),
    verifyTestDomain(created.id, `a-${tag}.test.example`),
  ]);
  return { ...created, email, plan };
}

/** A user of `client` with `role`, written straight into the store (as an invitation does), with an address of its own. */
export async function addTestUser(client: { id: number; plan: PlanTier }, role: Role): Promise<string> {
  const email = `user-${randomInt(1e12)}@test.example`;
  await addUser(storeDeps(), client, { email, name: `User ${role}`, role });
  return email;
}

import { AppError, conflict, notFound, rateLimited, unprocessable, type ErrorItem } from '../../errors.js';
import type { Clock, Mailer } from '../../platform.js';
import { BROADCAST_LIMITS } from '../../public/broadcast-rules.js';
import type { SessionStore } from '../auth/session-store.js';
import { digestToken } from '../auth/session-tokens.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import { effectiveSenderOf, isSandboxRecipient } from '../domains/effective-sender.js';
import { serviceSendersOf, type ServiceSendersConfig } from '../domains/service-senders.js';
import { withFooter } from '../executions/compliance-footer.js';
import { linksBaseUrlOf } from '../links/links-base-url.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { findTemplate } from '../templates/get-template.js';
import { renderEmail } from '../templates/render-email.js';
import type { TemplateRecord, TemplateStore } from '../templates/template-store.js';
import type { UserRecord, UserStore } from '../users/user-store.js';
import type { BroadcastStore } from './broadcast-store.js';
import type { BroadcastTestBody, BroadcastTestView } from './schemas.js';

export interface BroadcastTestDeps {
  broadcasts: Pick<BroadcastStore, 'get'>;
  users: Pick<UserStore, 'list'>;
  sessions: Pick<SessionStore, 'countSignIn'>;
  settings: Pick<SettingsStore, 'load'>;
  templates: TemplateStore;
  mailer: Mailer;
  clock: Clock;
  config: {
    PUBLIC_BASE_URL: string;
    LINKS_BASE_URL?: string | undefined;
    SES_CONFIGURATION_SET?: string | undefined;
  } & ServiceSendersConfig;
}

const HOUR_SECONDS = 3_600;
export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * POST /client/broadcasts/{id}/test: the broadcast's e-mail, each variant, to each named address — every one an
 * address of the client's own dashboard users (another is 422 `reference` at its place: a test is never a way to
 * mail anyone). Sent now, as the broadcast would be (the client's effective sender and SES tenant, its configuration
 * set, the template and subject rendered with the user as the contact, the footer), with "[Test] " before the
 * subject. No execution and no sent-email record: nothing is counted in the broadcast's results, no contact is read or
 * written, the quotas are not spent. A paused sender (the deliverability guard or SES's tenant pause) is 409 `state`,
 * as a real send would wait. At most `testSendsPerHour` requests a client per hour (429; the invitations' counter).
 * Requests: one wave (head, users, settings bundle, templates, the hour's counter: 1 BatchGet + 1 Query + 1 GetItem +
 * 1 UpdateItem and a GetItem a client template), then one SES SendEmail per address and variant.
 */
export async function sendBroadcastTest(
  deps: BroadcastTestDeps,
  clientId: number,
  id: number,
  body: BroadcastTestBody,
): Promise<BroadcastTestView> {
  const now = deps.clock.now();
  const [{ broadcast }, users, bundle] = await Promise.all([
    deps.broadcasts.get(clientId, id),
    deps.users.list(clientId),
    deps.settings.load(clientId, quotaMonthOf(now)),
  ]);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  const issues: ErrorItem[] = [];
  body.emails.forEach((email, i) => {
    if (!byEmail.has(email.toLowerCase()))
      issues.push({
        condition: 'reference',
        key: `emails.${i}`,
        error: 'Not one of your dashboard users: a test goes only to your own team',
      });
  });
  if (issues.length > 0) throw unprocessable(issues);
  const client = bundle.client;
  if (!client) throw notFound('id', 'Broadcast not found');
  if (client.sending_paused_at || bundle.sender?.tenant_paused_at)
    throw conflict('state', 'id', 'Sending is paused for your account: a test waits as every e-mail does');

  const hour = Math.floor(now.getTime() / 1000 / HOUR_SECONDS) * HOUR_SECONDS;
  const [used, templates] = await Promise.all([
    deps.sessions.countSignIn('broadcast_test', digestToken(String(clientId)), hour, hour + 2 * HOUR_SECONDS),
    Promise.all(broadcast.definition.variants.map((v, i) => templateOf(deps, clientId, v.template_id, i))),
  ]);
  if (used > BROADCAST_LIMITS.testSendsPerHour)
    throw rateLimited(
      `At most ${BROADCAST_LIMITS.testSendsPerHour} test sends an hour; try again in ${hour + HOUR_SECONDS - Math.floor(now.getTime() / 1000)} s`,
    );

  const sending = effectiveSenderOf({
    settings: bundle.settings,
    clientName: client.name,
    sender: bundle.sender,
    ...serviceSendersOf(deps.config),
  });
  const origin = linksBaseUrlOf(deps.config).replace(/\/+$/, '');
  const category = broadcast.definition.category;
  const userEmails = users.map((u) => u.email);
  const unique = [...new Set(body.emails.map((e) => e.toLowerCase()))];
  const sent: BroadcastTestView['sent'] = [];
  // One address after another: a handful of sends, and a refusal stops before the rest.
  for (const email of unique) {
    // Dashboard users only, so the sandbox's rule (its users and SES's simulator) holds for every address here.
    if (sending.sandbox && !isSandboxRecipient(email, userEmails)) continue;
    const user = byEmail.get(email)!;
    for (const [variant, template] of templates.entries()) {
      const subject = broadcast.definition.variants[variant]?.subject;
      // A test has no sent e-mail for its links to name: they lead to the public pages, inert.
      const links = { publicBaseUrl: origin, unsubscribeUrl: `${origin}/u/test`, browserUrl: `${origin}/v/test` };
      const rendered = renderEmail({
        template: subject ? { ...template, subject } : template,
        contact: contactOf(user, clientId, now),
        branding: {
          settings: bundle.settings,
          client,
          links,
          from: { address: sending.fromAddress, name: sending.fromName },
        },
      });
      const bodyWithFooter = withFooter(rendered, {
        companyAddress: bundle.settings?.company_address,
        unsubscribeUrl: links.unsubscribeUrl,
        category,
      });
      const testSubject = `${TEST_SUBJECT_PREFIX}${rendered.subject}`;
      const result = await deps.mailer.send({
        from: sending.fromName ? `${quoteName(sending.fromName)} <${sending.fromAddress}>` : sending.fromAddress,
        to: email,
        ...(bundle.settings?.email_reply_to ? { replyTo: [bundle.settings.email_reply_to] } : {}),
        subject: testSubject,
        html: bodyWithFooter.html,
        text: bodyWithFooter.text,
        tags: { client_id: String(clientId), broadcast_test: String(id) },
        ...(sending.configurationSet || deps.config.SES_CONFIGURATION_SET
          ? { configurationSet: sending.configurationSet ?? deps.config.SES_CONFIGURATION_SET }
          : {}),
        ...(sending.tenant ? { tenant: sending.tenant } : {}),
      });
      if (result.kind === 'rejected')
        throw conflict('state', 'emails', `SES refused the test to ${email}: ${result.reason}`);
      sent.push({ email, variant, subject: testSubject });
    }
  }
  return { sent };
}

async function templateOf(
  deps: Pick<BroadcastTestDeps, 'templates'>,
  clientId: number,
  templateId: number,
  variant: number,
): Promise<TemplateRecord> {
  try {
    return await findTemplate(deps, clientId, templateId);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
    throw conflict(
      'state',
      `definition.variants.${variant}.template_id`,
      `Its template ${templateId} is gone: edit the draft to name another`,
    );
  }
}

/** The user as the template's contact: its address and its name split at the first space. */
function contactOf(user: UserRecord, clientId: number, now: Date): ContactRecord {
  const [first, ...rest] = user.name.trim().split(/\s+/);
  return {
    id: 0,
    client_id: clientId,
    email: user.email,
    ...(first ? { first_name: first } : {}),
    ...(rest.length > 0 ? { last_name: rest.join(' ') } : {}),
    is_subscribed: true,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  } as ContactRecord;
}

/** A display name as RFC 5322 wants it: quoted, with quotes and backslashes escaped, on one line. */
const quoteName = (name: string) => `"${name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}"`;

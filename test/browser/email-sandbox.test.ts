import { existsSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import puppeteer, { type Browser, type BrowserContext, type Frame, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../scripts/browser/dashboard.js';
import { waitFor } from '../../scripts/browser/harness.js';
import type { LocalRuntime } from '../../local/runtime.js';

/**
 * The cross-tenant takeover through "view in browser", in a real browser (headless Chromium) against the local runtime
 * (one origin for the dashboard and the links: the worst case, and the local default). Client A's e-mail holds a
 * script (stored straight into the table: the save check refuses it now) that, run with the dashboard's origin, would
 * mint an API key with the CSRF header and leave a marker in the origin's storage. B's owner, signed in, opens A's
 * `/v/` link, then B's own e-mail holding the same script on the sent-email page; B's viewer opens that template's
 * preview. The script never runs: no key, no marker, no request it would make. A first step runs the same script in
 * the dashboard's page itself, to show that these checks see it when it does run. Skipped, with a line, without Chromium.
 */
const chromium = existsSync(CHROMIUM);
if (!chromium) console.log(`SKIPPED the e-mail sandbox browser check: no Chromium at ${CHROMIUM}`);

const MARKER = 'els-email-script-ran';
/** What the attacker's template runs: a key minted with the victim's session and CSRF token, a marker in storage. */
const PAYLOAD = `(function () {
  try { localStorage.setItem('${MARKER}', String(location.origin)); } catch (e) {}
  var csrf = (document.cookie.match(/(?:^|; )els_csrf=([^;]+)/) || [])[1] || '';
  fetch('/api/v1/client/api-keys', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ label: 'minted by an e-mail' }) });
})();`;
const ATTACK_HTML = `<!DOCTYPE html><html><head><title>Hello</title></head><body><p>Your invoice is ready.</p>
<script>${PAYLOAD}</script>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="${PAYLOAD.replace(/"/g, '&quot;')}" alt="">
</body></html>`;

let runtime: LocalRuntime;
let browser: Browser;
/** Every request any page or frame of the browser made (method and URL). */
const requests: string[] = [];

beforeAll(async () => {
  if (!chromium) return;
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
  const { buildDashboard } = await import('../../scripts/dashboard/build.js');
  await buildDashboard();
  const { startLocalRuntime } = await import('../../local/runtime.js');
  runtime = await startLocalRuntime({ port: 0, dynamoPort: 0, sesPort: 0, host: '127.0.0.1', periodicSweeps: false });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

/** Calls the API with a client's key, as its own systems would. */
async function api(key: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${runtime.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
  return JSON.parse(text);
}

/** A client, its owner's address, and a template holding the script made its welcome e-mail, sent once. */
async function clientWithAttackMail(label: string) {
  const { clientAdminDeps } = await import('../../shared/composition/providers/client-admin.js');
  const { createClient } = await import('../../shared/domain/clients/create-client.js');
  const { getContainer } = await import('../../shared/composition/container.js');
  const { templateStore } = await import('../../shared/composition/providers/template-store.js');
  const { ids } = await import('../../shared/composition/providers/ids.js');
  const { nextClientTemplateId } = await import('../../shared/domain/templates/create-template.js');
  const { verifyLocalDomain } = await import('../../local/local-domains.js');
  const email = `${label}-${randomInt(1e9)}@example.com`;
  const client = await createClient(clientAdminDeps(), { email, name: `Client ${label}`, plan: 'growth' });
  // Out of the sandbox, so the welcome e-mail reaches a contact that is not one of the client's users.
  await verifyLocalDomain(getContainer(), client.id, `${label}-${randomInt(1e9)}.test.example`);
  const templateId = await nextClientTemplateId(getContainer().use(ids));
  const at = new Date().toISOString();
  // Stored as content saved before the check existed would be: the API refuses it now (422 unsafe).
  await getContainer().use(templateStore).create({
    id: templateId,
    client_id: client.id,
    type: 2,
    name: 'Invoice',
    subject: 'Your invoice',
    preview_text: '',
    html_body: ATTACK_HTML,
    text_body: 'Your invoice',
    created_at: at,
    updated_at: at,
  });
  await api(client.api_key, 'PATCH', '/client/workflows/1/customization', { template_id: templateId });
  const event = (
    await api(client.api_key, 'POST', '/client/events?sync=true', {
      type: 'signup',
      email: `contact-${randomInt(1e9)}@example.com`,
      auto_create_contact: true,
    })
  ).data;
  const sentEmailId = await waitFor('the welcome e-mail sent', async () => {
    const executions = (await api(client.api_key, 'GET', '/client/executions?workflow_id=1')).data.executions as {
      contact_id: number;
      sent_email_id: string | null;
    }[];
    return executions.find((e) => e.contact_id === event.contact_id)?.sent_email_id ?? undefined;
  });
  const sent = (await api(client.api_key, 'GET', `/client/sent-emails/${sentEmailId}`)).data as {
    browser_url: string;
    html_body: string;
  };
  if (!sent.html_body.includes(MARKER)) throw new Error('the sent e-mail does not hold the script');
  return { client, email, templateId, sentEmailId, browserUrl: sent.browser_url };
}

/** Signs `email` in through the dashboard in a fresh browser context, as a person does (the link from the local SES). */
async function signedIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
  const origin = new URL(runtime.baseUrl).origin;
  await page.goto(`${origin}/app`);
  await page.waitForSelector('#sign-in-email', { visible: true, timeout: 10_000 });
  await page.type('#sign-in-email', email);
  await page.keyboard.press('Enter');
  const link = await waitFor('the sign-in e-mail', async () => {
    const store = (await (await fetch(`${runtime.sesUrl}/store`)).json()) as {
      emails: { destination: { to: string[] }; body: { html?: string; text?: string } }[];
    };
    const mail = store.emails.filter((m) => m.destination.to.some((to) => to.includes(email))).at(-1);
    return `${mail?.body.text ?? ''}`.match(
      /https?:\/\/[^\s"<>]+\/api\/v1\/auth\/callback\?token=[A-Za-z0-9_.~-]+/,
    )?.[0];
  });
  await page.goto(link);
  // The link may open a page that asks to confirm with a button: press it.
  const button = await page.$('form button, form input[type="submit"]');
  if (button && !(await page.$('nav[aria-label="Dashboard"]')))
    await Promise.all([page.waitForNavigation(), button.click()]);
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Overview'`, { timeout: 10_000 });
  return { context, page };
}

/** The dashboard's API keys, read with the page's own session. */
const keysOf = (page: Page): Promise<number> =>
  page.evaluate(
    `fetch('/api/v1/client/api-keys').then((r) => r.json()).then((b) => b.data.api_keys.length)`,
  ) as Promise<number>;
const markerOf = (page: Page): Promise<string | null> =>
  page.evaluate(`localStorage.getItem(${JSON.stringify(MARKER)})`) as Promise<string | null>;
const mintRequests = () => requests.filter((r) => r.startsWith('POST ') && r.endsWith('/api/v1/client/api-keys'));

/** The frame's document, read through the devtools protocol (the page cannot: the frame's origin is opaque). */
async function frameHtml(frame: Frame): Promise<string> {
  return frame.content();
}

describe('an e-mail script never runs with the dashboard origin', () => {
  it.skipIf(!chromium)(
    "B's owner opens A's view-in-browser link and B's own e-mail and preview: no key minted, no marker, no request",
    async () => {
      // Prepare: client A (the attacker) and client B (the victim), each with an e-mail holding the script
      const [attacker, victim] = await Promise.all([clientWithAttackMail('attacker'), clientWithAttackMail('victim')]);
      const { addUser } = await import('../../shared/domain/users/manage-users.js');
      const { clientAdminDeps } = await import('../../shared/composition/providers/client-admin.js');
      const viewerEmail = `viewer-${randomInt(1e9)}@example.com`;
      await addUser(
        clientAdminDeps(),
        { id: victim.client.id, plan: 'growth' },
        { email: viewerEmail, name: 'Viewer', role: 4 },
      );
      const owner = await signedIn(victim.email);
      const origin = new URL(runtime.baseUrl).origin;

      // The checks see the script when it does run with the dashboard's origin: a key and the marker
      const keysBefore = await keysOf(owner.page);
      await owner.page.evaluate(PAYLOAD);
      await waitFor('the control key', async () => ((await keysOf(owner.page)) === keysBefore + 1 ? true : undefined));
      expect(await markerOf(owner.page)).toBe(origin);
      expect(mintRequests()).toHaveLength(1);
      await owner.page.evaluate(`localStorage.removeItem(${JSON.stringify(MARKER)})`);
      const keys = keysBefore + 1;

      // Act 1: A's link, opened by B's signed-in owner (same origin as the dashboard here)
      const link = await owner.context.newPage();
      link.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
      const answer = await link.goto(attacker.browserUrl);
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toMatch(/^sandbox;/);
      expect(await link.content()).toContain('Your invoice is ready.');
      expect(await link.title()).toBe('Hello');

      // Act 2: B's own e-mail on the dashboard's sent-email page: the server's document in its frame
      await owner.page.goto(`${origin}/app/sent-email?id=${victim.sentEmailId}`);
      const sentFrame = await waitFor('the sent e-mail in its frame', async () =>
        owner.page.frames().find((f) => f.url().endsWith(`/client/sent-emails/${victim.sentEmailId}/html`)),
      );
      await waitFor('the frame loaded', async () =>
        (await frameHtml(sentFrame)).includes('Your invoice is ready.') ? true : undefined,
      );
      expect(await owner.page.$eval('iframe.email-frame', (f) => f.getAttribute('sandbox'))).toBe('');

      // Act 3: the template's preview, as B's viewer sees it (the stored HTML, rendered by the server into the frame)
      const viewer = await signedIn(viewerEmail);
      await viewer.page.goto(`${origin}/app/template?id=${victim.templateId}`);
      const previewFrame = await waitFor('the preview in its frame', async () =>
        viewer.page
          .frames()
          .find(
            (f) => f.name() === 'tp-preview-frame' && f.url().endsWith(`/email-templates/${victim.templateId}/html`),
          ),
      );
      await waitFor('the preview loaded', async () =>
        (await frameHtml(previewFrame)).includes('Your invoice is ready.') ? true : undefined,
      );
      // An owner's editor posts the stored HTML as a draft: the draft check refuses it at the field, nothing is framed
      await owner.page.goto(`${origin}/app/template?id=${victim.templateId}`);
      await owner.page.waitForSelector('#tp-html_body[aria-invalid="true"]', { timeout: 10_000 });
      // Time for any script to have run and its request to have gone
      await new Promise((resolve) => setTimeout(resolve, 1000));

      // Assess: the script ran nowhere with the dashboard's origin
      expect(await keysOf(owner.page)).toBe(keys);
      expect(await markerOf(owner.page)).toBeNull();
      expect(await markerOf(viewer.page)).toBeNull();
      expect(mintRequests()).toHaveLength(1);
      await Promise.all([owner.context.close(), viewer.context.close()]);
    },
    120_000,
  );
});

/**
 * The dashboard in a real browser (issue 25 §3), as a person uses it: builds the app, starts a fresh local runtime
 * (in memory, free ports) with its demo client, opens /app in the system's headless Chromium (Debian's package;
 * nothing is downloaded), signs in through the link read from the local SES store, reports the walk-through's
 * signup event and waits until the welcome e-mail is on the overview's chart, then signs out. On every page: axe-core
 * finds no serious or critical violation, every control is reached with Tab and has a name. Throughout: no console
 * error, no failed request, no request to another origin. Screenshots (desktop and 375 px) go to docs/screenshots/.
 *
 * `npm run test:browser` runs it with the API reference's check; `npm test` runs it through the `browser` vitest
 * project (test/browser/dashboard.test.ts), skipped with a line saying so when Chromium is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer, { type Page } from 'puppeteer-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
/** Issue 25 §2: the first page is usable within this on the local runtime. */
export const FIRST_PAGE_BUDGET_MS = 1000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export interface DashboardCheck {
  firstPageMs: number;
  screenshots: string[];
  axe: Record<string, number>;
  /** Controls reached with Tab and named, by page. */
  keyboard: Record<string, number>;
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  passes: unknown[];
}

/** axe-core, injected from node_modules as a script of its own (not from a CDN). */
async function runAxe(page: Page, label: string, problems: string[]): Promise<number> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
  for (const violation of result.violations) {
    if (violation.impact === 'serious' || violation.impact === 'critical') {
      problems.push(`axe (${label}): ${violation.impact} ${violation.id}: ${violation.help} at ${JSON.stringify(violation.nodes.map((n) => n.target))}`);
    }
  }
  return result.violations.length;
}

/**
 * Tabs through the page from the top and checks that every control it shows is reached (a radio group once, as the
 * browser does) and has an accessible name.
 */
async function checkKeyboard(page: Page, label: string, problems: string[]): Promise<number> {
  // Evaluated in the page (strings: this project compiles scripts without the DOM library).
  const describe = `(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    return el.type === 'radio' ? 'radio:' + el.name : (el.id || '') + '|' + el.tagName + '|' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
  })()`;
  const controls = (await page.evaluate(`(() => {
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const name = (el) => {
      if (el.getAttribute('aria-label')) return el.getAttribute('aria-label').trim();
      if (el.labels && el.labels.length) return Array.from(el.labels).map((l) => l.textContent.trim()).join(' ');
      return (el.textContent || '').trim();
    };
    return Array.from(document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])'))
      .filter(visible)
      .map((el) => ({ key: el.type === 'radio' ? 'radio:' + el.name : (el.id || '') + '|' + el.tagName + '|' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40), name: name(el) }));
  })()`)) as { key: string; name: string }[];
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  const reached = new Set<string>();
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(describe)) as string | null;
    if (focused === null) continue;
    if (reached.has(focused) && !focused.startsWith('radio:')) break;
    reached.add(focused);
  }
  for (const control of controls) {
    if (!reached.has(control.key)) problems.push(`keyboard (${label}): Tab never reaches ${control.key}`);
    if (!control.name) problems.push(`keyboard (${label}): ${control.key} has no label`);
  }
  return controls.length;
}

async function screenshot(page: Page, name: string, shots: string[]): Promise<void> {
  const path = `${SCREENSHOTS}${name}`;
  await page.screenshot({ path, fullPage: true });
  shots.push(path);
}

/** The check; throws with every problem found. */
export async function checkDashboard(): Promise<DashboardCheck> {
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}. Install Debian's package: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
  const { buildDashboard } = await import('../dashboard/build.js');
  await buildDashboard();
  const { startLocalRuntime } = await import('../../local/runtime.js');
  const { ensureDemoClient, DEMO_CLIENT } = await import('../../local/demo-client.js');
  const runtime = await startLocalRuntime({ port: 0, dynamoPort: 0, sesPort: 0, host: '127.0.0.1', periodicSweeps: false });
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const problems: string[] = [];
  const shots: string[] = [];
  const axe: Record<string, number> = {};
  const keyboard: Record<string, number> = {};
  let step = 'start';
  try {
    const lines = await ensureDemoClient(runtime.baseUrl);
    const apiKey = lines.join('\n').match(/els_[A-Za-z0-9]{40}/)?.[0];
    if (!apiKey) throw new Error(`The demo client's key was not printed: ${lines.join(' / ')}`);
    const origin = new URL(runtime.baseUrl).origin;
    const meUrl = `${origin}/api/v1/auth/me`;

    const page = await browser.newPage();
    await page.setViewport(DESKTOP);
    let signedIn = false;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) problems.push(`request to another origin: ${url}`);
    });
    const settingsUrl = `${origin}/api/v1/client/settings`;
    /**
     * The refusals by design, and only those: without a session /auth/me says 401 (the app then shows the sign-in
     * page); a client whose settings were never saved gets 404 from /client/settings (the app says so on the card).
     */
    const expected = (status: number, url: string) => (status === 401 && url === meUrl && !signedIn) || (status === 404 && url === settingsUrl);
    page.on('response', (answer) => {
      if (answer.status() >= 400 && !expected(answer.status(), answer.url())) problems.push(`${answer.status()} for ${answer.request().method()} ${answer.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs every 4xx as an error: the refusals above are expected, nothing else is.
      const status = Number(message.text().match(/status of (\d{3})/)?.[1]);
      if (status && expected(status, message.location().url ?? '')) return;
      problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));

    step = 'the first page';
    // 1. The first page, signed out: the sign-in form, usable within the budget.
    const started = Date.now();
    const response = await page.goto(`${origin}/app`);
    if (response?.status() !== 200) throw new Error(`GET /app answered ${response?.status()}`);
    await page.waitForSelector('#sign-in-email', { visible: true, timeout: 10_000 });
    const firstPageMs = Date.now() - started;
    if (page.url() !== `${origin}/app/sign-in`) problems.push(`signed out, the app is at ${page.url()}, not /app/sign-in`);
    axe['sign-in'] = await runAxe(page, 'sign-in', problems);
    keyboard['sign-in'] = await checkKeyboard(page, 'sign-in', problems);
    await screenshot(page, 'dashboard-sign-in.png', shots);

    step = 'sign-in form';
    // 2. Sign in with the keyboard: the address, Enter, "check your e-mail".
    await page.focus('#sign-in-email');
    await page.keyboard.type(DEMO_CLIENT.email);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Check your e-mail'`, { timeout: 10_000 });

    step = 'the sign-in link';
    // 3. The link, from the local SES store.
    const link = await waitFor('the sign-in e-mail in the SES store', async () => {
      const store = (await (await fetch(`${runtime.sesUrl}/store`)).json()) as { emails: { destination: { to: string[] }; body: { html?: string; text?: string } }[] };
      const mail = store.emails.filter((m) => m.destination.to.some((to) => to.includes(DEMO_CLIENT.email))).at(-1);
      return `${mail?.body.text ?? ''} ${mail?.body.html ?? ''}`.match(/https?:\/\/[^\s"<>]+\/api\/v1\/auth\/callback\?token=[A-Za-z0-9_.~-]+/)?.[0];
    });
    signedIn = true;
    await page.goto(link);
    await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Overview'`, { timeout: 10_000 });
    const account = (await page.$eval('.account', (el) => el.textContent ?? '')) as string;
    if (!account.includes('owner')) problems.push(`the header does not show the user's role: "${account}"`);

    step = 'the empty state';
    // 4. A new client: the empty state teaches the first event with this origin's base URL.
    await page.waitForFunction(`document.querySelector('#first-event-title') !== null`, { timeout: 10_000 });
    const curl = (await page.$eval('pre', (el) => el.textContent ?? '')) as string;
    if (!curl.includes(`${origin}/api/v1/client/events`)) problems.push(`the first curl does not name ${origin}/api/v1: ${curl}`);
    if (curl.includes(apiKey)) problems.push('the empty state shows the API key');

    step = 'the event on the chart';
    // 5. The walk-through's event; the welcome e-mail appears on the chart after a refresh.
    const sent = await fetch(`${runtime.baseUrl}/client/events?sync=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'signup', email: 'ada@example.com', auto_create_contact: true }),
    });
    if (sent.status !== 201) throw new Error(`POST /client/events answered ${sent.status}: ${await sent.text()}`);
    const today = new Date().toISOString().slice(0, 10);
    await waitFor('the welcome e-mail on the overview chart', async () => {
      await page.click('button.refresh');
      await page.waitForFunction(`document.querySelector('[aria-busy]') === null`, { timeout: 5_000 });
      const row = (await page.evaluate(
        `(() => { const th = [...document.querySelectorAll('tbody th')].find((th) => th.textContent === '${today}'); return th ? [...th.parentElement.children].map((c) => c.textContent) : null; })()`,
      )) as string[] | null;
      return row && Number(row[1]) >= 1 ? row : undefined;
    });
    const canvas = await page.$('[data-testid="stats-chart"] canvas');
    if (!canvas) problems.push('the overview has no chart canvas');
    const legend = (await page.$$eval('.u-legend .u-label', (els) => els.map((el) => el.textContent ?? ''))) as string[];
    for (const series of ['Sent', 'Delivered', 'Human opens', 'Human clicks', 'Bounces', 'Complaints']) {
      if (!legend.includes(series)) problems.push(`the chart has no "${series}" series (legend: ${legend.join(', ')})`);
    }
    await page.click('summary');
    axe['overview'] = await runAxe(page, 'overview', problems);
    keyboard['overview'] = await checkKeyboard(page, 'overview', problems);
    await page.click('summary');
    await screenshot(page, 'dashboard-overview.png', shots);
    await page.setViewport(PHONE);
    await page.reload();
    await page.waitForFunction(`document.querySelector('[data-testid="stats-chart"] canvas') !== null`, { timeout: 10_000 });
    axe['overview-375'] = await runAxe(page, 'overview at 375 px', problems);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    if (overflow > 0) problems.push(`at 375 px the overview is ${overflow} px wider than the screen`);
    await screenshot(page, 'dashboard-overview-375.png', shots);
    await page.setViewport(DESKTOP);

    step = 'sign out';
    // 6. Sign out: back to the sign-in page, and the session no longer works.
    // Leaving the phone's viewport (isMobile) reloads the page in Chromium: wait for the app again.
    await page.waitForSelector('.account button', { visible: true, timeout: 10_000 });
    await page.click('.account button');
    await page.waitForSelector('#sign-in-email', { visible: true, timeout: 10_000 });
    signedIn = false;

    if (firstPageMs > FIRST_PAGE_BUDGET_MS) problems.push(`the first page took ${firstPageMs} ms to be usable (budget ${FIRST_PAGE_BUDGET_MS} ms)`);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return { firstPageMs, screenshots: shots, axe, keyboard };
  } catch (error) {
    if (problems.length > 0 && error instanceof Error && error.message === problems.join('\n')) throw error;
    throw new Error(`${step}: ${error instanceof Error ? error.message : String(error)}${problems.length ? `\n${problems.join('\n')}` : ''}`);
  } finally {
    await browser.close();
    await runtime.stop();
  }
}

/** Polls `probe` every 250 ms until it gives a value (≤ 20 s). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null>): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  checkDashboard().then(
    (result) => {
      console.log(`Dashboard: first page usable in ${result.firstPageMs} ms; axe findings (none serious or critical): ${JSON.stringify(result.axe)}; controls reached with Tab, all named: ${JSON.stringify(result.keyboard)}`);
      for (const shot of result.screenshots) console.log(`screenshot: ${shot}`);
      console.log('PASS: signed in by the e-mail link, the event on the overview chart, signed out; no console error, no failed request, nothing from another origin');
      process.exit(0);
    },
    (error: unknown) => {
      console.error(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

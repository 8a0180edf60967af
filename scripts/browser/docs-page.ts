/**
 * `npm run test:browser`: the API reference page in a real browser. Starts the local runtime on free
 * ports, opens /api/v1/docs in the system's headless Chromium (Debian's package; nothing is downloaded), waits until
 * every operation of the OpenAPI document is rendered, checks that no request left the origin and that the console
 * shows no error, and saves a full-page screenshot to docs/screenshots/api-docs.png. Exit 1 on any failure.
 *
 * Chromium: `apt-get update && apt-get install -y chromium` (or CHROMIUM_PATH=/path/to/chrome).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../../docs/screenshots/api-docs.png', import.meta.url));
const RENDER_TIMEOUT_MS = 60_000;

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
  const { startLocalRuntime } = await import('../../local/runtime.js');
  const runtime = await startLocalRuntime({ port: 0, dynamoPort: 0, sesPort: 0, host: '127.0.0.1' });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const origin = new URL(runtime.baseUrl).origin;
    const openapi = (await (await fetch(`${runtime.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(openapi.paths).reduce((n, item) => n + Object.keys(item).length, 0);

    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) foreign.push(url);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()} for ${answer.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    page.on('requestfailed', (request) =>
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
    );

    const response = await page.goto(`${runtime.baseUrl}/docs`, { waitUntil: 'networkidle0' });
    if (response?.status() !== 200) throw new Error(`GET /api/v1/docs answered ${response?.status()}`);
    // Evaluated in the page (a string: this project compiles without the DOM library).
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${operations}`, {
      timeout: RENDER_TIMEOUT_MS,
    });
    const rendered = await page.$$eval('.opblock', (blocks) => blocks.length);
    const title = await page.$eval('.info .title', (el) => el.textContent?.trim() ?? '');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    console.log(`API reference: "${title}", ${rendered} operations rendered of ${operations} in the document`);
    console.log(`screenshot: ${SCREENSHOT}`);
    if (rendered !== operations) problems.push(`${rendered} operations rendered, the document has ${operations}`);
    if (foreign.length > 0) problems.push(`requests left the origin: ${foreign.join(', ')}`);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    console.log('PASS: every operation rendered, nothing loaded from another origin, no console error');
  } finally {
    await browser.close();
    await runtime.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

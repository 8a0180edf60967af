import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../scripts/browser/dashboard.js';
import { PREFERENCE_PAGE_CSP, preferencePage, type PreferencePageView } from '../../shared/domain/links/pages.js';

/**
 * The topics' preference page in headless Chromium, served with its own headers by a small server that records
 * what the form posts. JavaScript off: the form works by itself. Keyboard only: every control reached with Tab, ticked
 * with Space, saved with Enter. axe-core (from node_modules) finds nothing serious; a phone's width needs no sideways
 * scrolling; nothing is requested from another origin. Skipped, with a line, where Chromium is absent.
 */
const chromium = existsSync(CHROMIUM);
if (!chromium) console.log(`SKIPPED the preference page browser check: no Chromium at ${CHROMIUM}`);

const VIEW: PreferencePageView = {
  address: 'ann@example.com',
  brand: { name: 'Acme', color: '#FFDD00' },
  leftAll: false,
  topics: [
    { topic: { id: 1, name: 'Product news', description: 'What we ship, once a month' }, subscribed: true },
    { topic: { id: 2, name: 'Beta invites', description: '' }, subscribed: false },
  ],
};

let server: Server;
let origin: string;
const posted: string[] = [];
let browser: Browser | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') posted.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PREFERENCE_PAGE_CSP,
      });
      res.end(preferencePage(VIEW, req.method === 'POST'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (chromium)
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
});
afterAll(async () => {
  await browser?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the preference page in a browser', () => {
  it.skipIf(!chromium)('saves by keyboard alone with JavaScript off, loading nothing from another origin', async () => {
    const page = await browser!.newPage();
    await page.setJavaScriptEnabled(false);
    const foreign: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).origin !== origin && foreign.push(r.url())));
    await page.goto(`${origin}/u/token`);

    // Tab to each control in order, untick Product news (Space), tick Beta (Space), then save (Enter on the button)
    const reached: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      reached.push(String(await page.evaluate('document.activeElement.id || document.activeElement.textContent')));
      if (i < 2) await page.keyboard.press('Space');
    }
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

    expect(reached).toEqual(['topic-1', 'topic-2', 'leave-all', 'Save my choices']);
    expect(posted.at(-1)).toBe('form=preferences&shown=1&shown=2&topic=2');
    expect(await page.content()).toContain('Your choices are saved.');
    expect(foreign).toEqual([]);
    await page.close();
  });

  it.skipIf(!chromium)(
    'has no serious accessibility violation and fits a phone without sideways scrolling',
    async () => {
      const page = await browser!.newPage();
      await page.setViewport({ width: 375, height: 812, isMobile: true, hasTouch: true });
      await page.goto(`${origin}/u/token`);
      // axe-core as a script of the test's own (the page's CSP forbids scripts, so it is added through the devtools protocol).
      await page.setBypassCSP(true);
      await page.goto(`${origin}/u/token`);
      await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
      const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null }[];
      };
      const widths = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];

      expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
      await page.close();
    },
  );
});

/**
 * What the dashboard's browser check (scripts/browser/dashboard.ts) gives each journey (scripts/browser/journeys/):
 * the signed-in page, the runtime, the demo client's API key, and the checks every page passes — axe-core (no serious
 * or critical violation), every control reached with Tab and named, no overflow at 375 px, screenshots to
 * docs/screenshots/. Problems are collected, not thrown, so one run reports them all.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';

export const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 812, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export interface BrowserContext {
  page: Page;
  /** `http://127.0.0.1:<port>` of the fresh local runtime. */
  origin: string;
  /** `<origin>/api/v1`. */
  baseUrl: string;
  /** The local SES store's URL (`GET <sesUrl>/store` lists what was sent). */
  sesUrl: string;
  /** The demo client's API key, for setting up data the way a client's systems would. */
  apiKey: string;
  problems: string[];
  shots: string[];
  axe: Record<string, number>;
  keyboard: Record<string, number>;
  /**
   * Declares a refusal the next step provokes on purpose (a field error: 422 for PATCH …/client/settings): the next
   * answer with this status whose URL contains `urlPart` is not a problem, nor its console line.
   */
  expectRefusal(status: number, urlPart: string): void;
}

/** A journey: a page group's walk as a person does it, after sign-in, on the shared browser and runtime. */
export interface Journey {
  name: string;
  run(ctx: BrowserContext): Promise<void>;
}

/** Calls the API as the client's own systems do (with its key), for a journey's setup. */
export async function callApi(
  ctx: BrowserContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const answer = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ctx.apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, json: text ? JSON.parse(text) : undefined };
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  passes: unknown[];
}

/** axe-core, injected from node_modules as a script of its own (not from a CDN). */
export async function runAxe(page: Page, label: string, problems: string[]): Promise<number> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
  for (const violation of result.violations) {
    if (violation.impact === 'serious' || violation.impact === 'critical') {
      problems.push(
        `axe (${label}): ${violation.impact} ${violation.id}: ${violation.help} at ${JSON.stringify(violation.nodes.map((n) => n.target))}`,
      );
    }
  }
  return result.violations.length;
}

/**
 * Tabs through the page from the top and checks that every control it shows is reached (a radio group once, as the
 * browser does) and has an accessible name.
 */
export async function checkKeyboard(page: Page, label: string, problems: string[]): Promise<number> {
  // Evaluated in the page (strings: this project compiles scripts without the DOM library).
  // Each focused element is marked once, so the walk ends when it comes back to the same element, not to another
  // whose key reads alike (rows of a table whose labels share their first 40 characters).
  const describe = `(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    if (!el.dataset.walkStop) el.dataset.walkStop = String((window.__walkStops = (window.__walkStops || 0) + 1));
    const key = el.type === 'radio' ? 'radio:' + el.name : (el.id || '') + '|' + el.tagName + '|' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    return { key, stop: el.dataset.walkStop };
  })()`;
  const controls = (await page.evaluate(`(() => {
    // A closed <details> keeps its content laid out (Chromium hides it by content-visibility), but Tab skips it.
    const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('details:not([open]) > :not(summary)');
    const name = (el) => {
      if (el.getAttribute('aria-label')) return el.getAttribute('aria-label').trim();
      if (el.labels && el.labels.length) return Array.from(el.labels).map((l) => l.textContent.trim()).join(' ');
      return (el.textContent || '').trim();
    };
    // A composite widget (a tree, a tab list) is one Tab stop: its other items are reached with the arrow keys.
    const roving = (el) => el.getAttribute('tabindex') === '-1' && el.closest('[role="tree"], [role="tablist"]');
    return Array.from(document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])'))
      .filter((el) => visible(el) && !roving(el))
      .map((el) => ({ key: el.type === 'radio' ? 'radio:' + el.name : (el.id || '') + '|' + el.tagName + '|' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40), name: name(el) }));
  })()`)) as { key: string; name: string }[];
  // The walk starts from the top of this page's document: the window may have lost focus to the browser itself (a
  // click whose target went away with a re-render), and then Tab moves nothing in the page at all.
  await page.bringToFront();
  await page.evaluate('window.focus(); document.activeElement && document.activeElement.blur()');
  const reached = new Set<string>();
  const stops = new Set<string>();
  for (let i = 0; i < 200; i += 1) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(describe)) as { key: string; stop: string } | null;
    if (focused === null) continue;
    // An e-mail's frame is one stop for the page, however many links inside it Tab walks through.
    if (focused.key.includes('|IFRAME|')) continue;
    if (stops.has(focused.stop) && !focused.key.startsWith('radio:')) break;
    stops.add(focused.stop);
    reached.add(focused.key);
  }
  for (const control of controls) {
    if (!reached.has(control.key)) problems.push(`keyboard (${label}): Tab never reaches ${control.key}`);
    if (!control.name) problems.push(`keyboard (${label}): ${control.key} has no label`);
  }
  return controls.length;
}

export async function screenshot(page: Page, name: string, shots: string[]): Promise<void> {
  const path = `${SCREENSHOTS}${name}`;
  // The page as a person first sees it: no focus ring left behind by the keyboard walk.
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.screenshot({ path, fullPage: true });
  shots.push(path);
}

/**
 * The checks every page passes, where it stands now: axe and the keyboard walk at desktop size, a screenshot
 * (`dashboard-<name>.png`), then at 375 px: axe again, no sideways overflow, a screenshot (`dashboard-<name>-375.png`).
 * `ready` is a selector that shows the page is drawn (waited for after the phone-size reload).
 */
export async function inspectPage(ctx: BrowserContext, name: string, ready: string): Promise<void> {
  const { page, problems, shots } = ctx;
  await page.waitForSelector(ready, { visible: true, timeout: 10_000 });
  ctx.axe[name] = await runAxe(page, name, problems);
  ctx.keyboard[name] = await checkKeyboard(page, name, problems);
  await screenshot(page, `dashboard-${name}.png`, shots);
  await page.setViewport(PHONE);
  await page.reload();
  await page.waitForSelector(ready, { visible: true, timeout: 10_000 });
  ctx.axe[`${name}-375`] = await runAxe(page, `${name} at 375 px`, problems);
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
  if (overflow > 0) problems.push(`at 375 px ${name} is ${overflow} px wider than the screen`);
  await screenshot(page, `dashboard-${name}-375.png`, shots);
  // Leaving the phone's viewport (isMobile) reloads the page in Chromium: wait for the app again.
  await page.setViewport(DESKTOP);
  await page.waitForSelector(ready, { visible: true, timeout: 10_000 });
}

/** Moves through the app as a click on its navigation does, and waits for the page's heading. */
export async function openFromNav(ctx: BrowserContext, label: string, heading: string): Promise<void> {
  const clicked = (await ctx.page.evaluate(
    `(() => { const a = [...document.querySelectorAll('nav[aria-label="Dashboard"] a')].find((a) => a.textContent.trim() === ${JSON.stringify(label)}); if (a) a.click(); return Boolean(a); })()`,
  )) as boolean;
  if (!clicked) throw new Error(`the navigation has no "${label}" link`);
  await ctx.page.waitForFunction(`document.querySelector('h1')?.textContent === ${JSON.stringify(heading)}`, {
    timeout: 10_000,
  });
}

/** Polls `probe` every 250 ms until it gives a value (≤ 20 s). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null>): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

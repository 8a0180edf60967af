import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, checkDashboard } from '../../scripts/browser/dashboard.js';

/**
 * The dashboard in headless Chromium (scripts/browser/dashboard.ts says what it checks). Part of `npm test`
 * where Debian's Chromium is installed; skipped, with a line saying why, where it is not.
 */
const chromium = existsSync(CHROMIUM);
if (!chromium) {
  console.log(
    `SKIPPED the dashboard browser check: no Chromium at ${CHROMIUM} (apt-get update && apt-get install -y chromium, or set CHROMIUM_PATH)`,
  );
}

describe('the dashboard in a browser', () => {
  it.skipIf(!chromium)(
    'signs in by the e-mail link, shows the event on the overview chart, signs out: accessible, same-origin, no error',
    async () => {
      const result = await checkDashboard();

      console.log(
        `dashboard: first page usable in ${result.firstPageMs} ms; controls reached with Tab: ${JSON.stringify(result.keyboard)}; screenshots: ${result.screenshots.join(', ')}`,
      );
      expect(result.screenshots.length).toBeGreaterThanOrEqual(3);
      // The keyboard walk saw the pages' controls (the e-mail field and its button; the overview's period, refresh, table…).
      expect(result.keyboard['sign-in']).toBeGreaterThanOrEqual(2);
      expect(result.keyboard['overview']).toBeGreaterThanOrEqual(8);
    },
  );
});

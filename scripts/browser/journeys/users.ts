import { type BrowserContext, type Journey, inspectPage, openFromNav } from '../harness.js';
import { clickButton, retype } from './settings.js';

/** Users: the owner sees the users and invites one as a viewer (its e-mail goes to the local SES). */
export const usersJourney: Journey = {
  name: 'users',
  async run(ctx: BrowserContext) {
    const { page } = ctx;
    await openFromNav(ctx, 'Users', 'Users');
    await page.waitForSelector('#st-users-list', { visible: true, timeout: 10_000 });
    await retype(ctx, '#st-invite-email', 'grace@example.com');
    await retype(ctx, '#st-invite-name', 'Grace Hopper');
    await page.select('#st-invite-role', '4');
    await clickButton(ctx, 'Send invitation');
    await page.waitForFunction(
      `[...document.querySelectorAll('#st-users-list h2')].some((h) => h.textContent.startsWith('Grace Hopper'))`,
      { timeout: 10_000 },
    );
    await inspectPage(ctx, 'users', '#st-users-list');
  },
};

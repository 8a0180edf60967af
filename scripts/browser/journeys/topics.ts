import { type BrowserContext, type Journey, callApi, inspectPage, openFromNav } from '../harness.js';
import { clickButton, retype } from './settings.js';

const NAME = 'Tips and tricks';

/** Topics: the list from the navigation, a new topic with the form, the API has it. */
export const topicsJourney: Journey = {
  name: 'topics',
  async run(ctx: BrowserContext) {
    const { page, problems } = ctx;
    await openFromNav(ctx, 'Topics', 'Topics');
    await page.waitForSelector('#st-new-topic-name', { visible: true, timeout: 10_000 });
    await retype(ctx, '#st-new-topic-name', NAME);
    await retype(ctx, '#st-new-topic-description', 'How to get more out of the product');
    await clickButton(ctx, 'Create topic');
    await page.waitForFunction(
      `[...document.querySelectorAll('#st-topics-list h2')].some((h) => h.textContent === ${JSON.stringify(NAME)})`,
      { timeout: 10_000 },
    );
    const listed = await callApi(ctx, 'GET', '/client/topics');
    if (!(listed.json?.data?.topics as { name: string }[] | undefined)?.some((topic) => topic.name === NAME))
      problems.push(`the API does not list the topic "${NAME}"`);
    await inspectPage(ctx, 'topics', '#st-topics-list');
  },
};

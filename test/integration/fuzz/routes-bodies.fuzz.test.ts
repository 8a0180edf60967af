import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { routes } from '../../../functions/routes.js';
import { assertProperty } from './fixed-seed.js';
import { FuzzSession } from './fuzz-session.js';
import { malformedBody, pathWith } from './malformed-input.js';

/** Malformed bodies on every route answer below 500, with the envelope, and a refusal writes nothing. */

const RUNS_PER_ROUTE = 10;

let session: FuzzSession;
/** Path parameter values that name something real, so the body is what gets judged. */
let existingIds: string[];

beforeAll(async () => {
  session = await FuzzSession.open();
  const contact = await session.probe({
    method: 'POST',
    path: '/client/contacts',
    credentials: { kind: 'client-key' },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'fuzz@example.com' }),
  });
  const template = await session.probe({
    method: 'POST',
    path: '/client/email-templates',
    credentials: { kind: 'client-key' },
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fuzz', subject: 'Hi', html_body: '<p>Hi</p>' }),
  });
  const idOf = (text: string) => String((JSON.parse(text) as { data: { id: number } }).data.id);
  existingIds = ['1', idOf(contact.text), idOf(template.text), 'fuzz%40example.com'];
});

describe('malformed request bodies', () => {
  it.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    'are answered on %s below 500, with the envelope, writing nothing when refused',
    async (_name, route, index) => {
      const request = fc.tuple(pathWith(route.path, fc.constantFrom(...existingIds)), malformedBody);
      await assertProperty(
        fc.asyncProperty(request, async ([path, body]) => {
          await session.probe({
            method: route.method,
            root: route.root,
            html: route.html,
            bareJson: route.bareJson,
            path,
            credentials: { kind: 'client-key' },
            headers: body.contentType === undefined ? {} : { 'content-type': body.contentType },
            body: body.payload,
          });
        }),
        { numRuns: RUNS_PER_ROUTE, seedOffset: index },
      );
    },
    60_000,
  );
});

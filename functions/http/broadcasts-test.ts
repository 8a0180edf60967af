import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { mailer } from '../../shared/composition/providers/mailer.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { BROADCAST_LIMITS } from '../../shared/public/broadcast-rules.js';
import { sendBroadcastTest } from '../../shared/domain/broadcasts/test-send.js';
import { BroadcastIdParams, BroadcastTestBody, BroadcastTestView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/test. */
export const handler = jsonApi(
  {
    summary: 'Send a test of a broadcast',
    description: `Sends the broadcast's e-mail now, each variant, to up to ${BROADCAST_LIMITS.testUsers} of your dashboard users (any other address is 422 \`reference\`), from your sender as the broadcast would go (a domain not yet verified: the onboarding sender), with "[Test] " before the subject, rendered with the user as the contact. Not counted in its results; no contact is read or written; quotas are not spent. Any status. 409 \`state\`: your sending is paused, or a template it names is gone. 429 beyond ${BROADCAST_LIMITS.testSendsPerHour} test sends an hour. Another account's broadcast: 404.`,
    params: BroadcastIdParams,
    body: BroadcastTestBody,
    responses: { 200: BroadcastTestView },
    errors: [404, 409, 429],
  },
  [broadcastStore, userStore, sessionStore, settingsStore, templateStore, mailer, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await sendBroadcastTest(deps, clientId, params.id, body), 'Test sent'),
);

import * as z from '../../shared/validation/zod.js';
import { API_BASE_PATH } from '../routes.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { sessionStore } from '../../shared/composition/providers/session-store.js';
import { systemMail } from '../../shared/composition/providers/system-mail.js';
import { userStore } from '../../shared/composition/providers/user-store.js';
import { sendSignInLink } from '../../shared/domain/auth/sign-in.js';
import { sendInvitation } from '../../shared/domain/users/invite-user.js';
import type { SystemMailMessage } from '../../shared/platform.js';
import { logger } from '../../shared/logger.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

const SystemMailBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sign_in'), email: z.string(), binding_hash: z.string() }),
  z.object({
    kind: z.literal('invitation'),
    client_id: z.int(),
    inviter_id: z.int(),
    email: z.string(),
    name: z.string(),
    role: z.int(),
  }),
]) satisfies z.ZodMiniType<SystemMailMessage>;

/**
 * system-mail queue → the service's own e-mails a request asked for, sent after its answer: a sign-in link (only for
 * an account) or an invitation. A transient SES failure or a store failure is thrown, so SQS delivers the message
 * again (a Lambda that dies mid-way is the same: the message comes back after the visibility timeout); a permanent
 * refusal is logged and acknowledged. A second delivery may send a second link: both work, each once.
 */
export const handler = sqsBatch(
  SystemMailBody,
  [userStore, sessionStore, clientStore, systemMail, clock],
  async (message, { deps }) => {
    const callbackUrl = `${deps.config.PUBLIC_BASE_URL}${API_BASE_PATH}/auth/callback`;
    const outcome =
      message.kind === 'sign_in'
        ? await sendSignInLink(deps, message, callbackUrl)
        : await sendInvitation(deps, message, callbackUrl);
    if (outcome === 'rejected')
      logger.warn('system e-mail refused by the provider', { kind: message.kind, metric: 'system_mail_rejected' });
    else logger.info('system e-mail', { kind: message.kind, outcome });
  },
);

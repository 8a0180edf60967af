import type { BroadcastMessage } from '../../../platform.js';
import { cancelRecipients } from './cancel-recipients.js';
import { decideWinner } from './decide-winner.js';
import { pacePass, type PacerDeps } from './pacer.js';
import { retryFailedPage } from './retry-failed.js';
import { snapshotPage } from './snapshot-page.js';
import { startBroadcast } from './start.js';

/** One step of a broadcast's engine, by the message's kind; the outcome names what it did (logs, tests). */
export function runBroadcastStep(deps: PacerDeps, message: BroadcastMessage): Promise<string> {
  switch (message.kind) {
    case 'start':
      return startBroadcast(deps, message);
    case 'snapshot':
      return snapshotPage(deps, message);
    case 'pace':
      return pacePass(deps, message);
    case 'cancel':
      return cancelRecipients(deps, message);
    case 'retry':
      return retryFailedPage(deps, message);
    case 'decide':
      return decideWinner(deps, message);
  }
}

import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { CheckField } from '../../ui/inputs.js';
import { Done } from '../../ui/status.js';
import type { Broadcast } from './broadcast-text.js';

/** Addresses one test goes to at most (the API's bound, stated in its document). */
export const TEST_ADDRESSES = 5;

/**
 * Test send (POST …/test {emails}): each variant now, to addresses of the team's own dashboard users (the API takes
 * no other), the signed-in user's chosen first. Not counted in the broadcast's results; any status, a draft too.
 */
export function TestSend(props: { api: Api; broadcast: Broadcast; ownEmail: string }) {
  const { api, broadcast, ownEmail } = props;
  const users = useLoad(
    async (signal) => (await answerOf(api.GET('/api/v1/client/users', { signal }), 'Reading the team')).data.users,
    [api],
  );
  // The team's addresses, one's own first; one's own even when the list cannot be read.
  const addresses = [ownEmail, ...(users.data ?? []).map((user) => user.email).filter((email) => email !== ownEmail)];
  const [chosen, setChosen] = useState<readonly string[]>([ownEmail]);
  const send = useAction(async () => {
    const answer = await answerOf(
      api.POST('/api/v1/client/broadcasts/{id}/test', {
        params: { path: { id: String(broadcast.id) } },
        body: { emails: [...chosen] },
      }),
      'Sending the test',
    );
    const sent = answer.data.sent;
    return `Sent ${sent.length === 1 ? 'one test' : `${sent.length} tests`}: ${sent
      .map((item) => `“${item.subject}” to ${item.email}`)
      .join('; ')}.`;
  });
  const full = chosen.length >= TEST_ADDRESSES;
  return (
    <Form class="card page-section" onSubmit={send.run} failure={send.failure} aria-labelledby="bc-test-title">
      <h2 id="bc-test-title">Test send</h2>
      <fieldset class="choice-group">
        <legend>Send a test to</legend>
        <p class="hint">
          Up to {TEST_ADDRESSES} of your team’s addresses. Each variant is sent now, its subject starting “[Test]”; the
          test is not counted in the broadcast’s results.
        </p>
        <div class="choice-list">
          {addresses.map((email, at) => (
            <CheckField
              key={email}
              id={`bc-test-to-${at}`}
              label={email}
              checked={chosen.includes(email)}
              onChecked={(on) =>
                setChosen(on ? (full ? chosen : [...chosen, email]) : chosen.filter((other) => other !== email))
              }
            />
          ))}
        </div>
      </fieldset>
      <FailureAlert />
      <FormActions submit="Send test" busy={send.busy} busyLabel="Sending…">
        <Done text={send.done} />
      </FormActions>
    </Form>
  );
}

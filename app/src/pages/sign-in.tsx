import { useState } from 'preact/hooks';
import { SIGN_IN_LINK_MS } from '../../../shared/public/session-rules.js';
import type { Api } from '../api/client.js';
import { answerOf, fieldErrorOf } from '../data/answer.js';
import { useAction } from '../data/use-action.js';
import { FailureAlert } from '../ui/failure-alert.js';
import { Form } from '../ui/form.js';
import { TextField } from '../ui/inputs.js';

/** Sign-in by e-mail link: the address in, "check your e-mail" out — the same answer with or without an account. */
export function SignInPage({ api }: { api: Api }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | undefined>();
  const send = useAction(async () => {
    await answerOf(api.POST('/api/v1/auth/sign-in', { body: { email } }), 'The sign-in request');
    setSent(email);
  });

  if (sent !== undefined) {
    return (
      <main class="centered">
        <h1>Check your e-mail</h1>
        <p role="status">
          If <strong>{sent}</strong> has a dashboard account, a sign-in link is on its way. It works once, for{' '}
          {SIGN_IN_LINK_MS / 60_000} minutes.
        </p>
        <p>
          Open it in this browser and press <strong>Sign in</strong> on its page. Opened on another device, the page
          names the account and asks you to confirm first.
        </p>
        <button
          type="button"
          class="link"
          onClick={() => {
            send.reset();
            setSent(undefined);
          }}
        >
          Use another address
        </button>
      </main>
    );
  }
  return (
    <main class="centered">
      <h1>Sign in to the dashboard</h1>
      <p>We e-mail you a link that signs you in. No password.</p>
      <Form onSubmit={send.run} failure={send.failure}>
        <TextField
          id="sign-in-email"
          label="E-mail address"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onValue={setEmail}
        />
        <button type="submit" disabled={send.busy}>
          {send.busy ? 'Sending…' : 'E-mail me a sign-in link'}
        </button>
        {/* A refusal without a field (too many requests) is its message alone: its items only restate it. */}
        {send.failure && !fieldErrorOf(send.failure, 'email') && (
          <FailureAlert failure={{ message: send.failure.message, errors: [] }} />
        )}
      </Form>
    </main>
  );
}

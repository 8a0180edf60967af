import { useState } from 'preact/hooks';
import type { Api, ErrorItem } from '../api/client.js';

type State = { step: 'form'; sending: boolean; message?: string; fieldError?: string } | { step: 'sent'; email: string };

/** Sign-in by e-mail link (issue 23): the address in, "check your e-mail" out — the same answer with or without an account. */
export function SignInPage({ api }: { api: Api }) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ step: 'form', sending: false });

  async function submit(event: Event) {
    event.preventDefault();
    setState({ step: 'form', sending: true });
    const { error, response } = await api.POST('/api/v1/auth/sign-in', { body: { email } });
    if (response.status === 202) {
      setState({ step: 'sent', email });
      return;
    }
    const items: ErrorItem[] = (error as { errors?: ErrorItem[] } | undefined)?.errors ?? [];
    const field = items.find((item) => item.key === 'email');
    const message = (error as { message?: string } | undefined)?.message ?? `The sign-in request failed (${response.status})`;
    setState({ step: 'form', sending: false, message: field ? undefined : message, fieldError: field?.error });
  }

  if (state.step === 'sent') {
    return (
      <main class="centered">
        <h1>Check your e-mail</h1>
        <p role="status">
          If <strong>{state.email}</strong> has a dashboard account, a sign-in link is on its way. It works once, for 15 minutes.
        </p>
        <p>
          Open it in this browser and press <strong>Sign in</strong> on its page. Opened on another device, the page names the
          account and asks you to confirm first.
        </p>
        <button type="button" class="link" onClick={() => setState({ step: 'form', sending: false })}>
          Use another address
        </button>
      </main>
    );
  }
  return (
    <main class="centered">
      <h1>Sign in to the dashboard</h1>
      <p>We e-mail you a link that signs you in. No password.</p>
      <form onSubmit={submit} noValidate={false}>
        <label for="sign-in-email">E-mail address</label>
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
          aria-invalid={state.fieldError ? 'true' : undefined}
          aria-describedby={state.fieldError ? 'sign-in-email-error' : undefined}
        />
        {state.fieldError && (
          <p id="sign-in-email-error" class="field-error">
            {state.fieldError}
          </p>
        )}
        <button type="submit" disabled={state.sending}>
          {state.sending ? 'Sending…' : 'E-mail me a sign-in link'}
        </button>
        {state.message && (
          <p role="alert" class="error">
            {state.message}
          </p>
        )}
      </form>
    </main>
  );
}

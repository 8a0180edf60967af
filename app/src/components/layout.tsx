import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Api } from '../api/client.js';
import { navigate, pathOf } from '../router.js';
import { type SignedIn, signOut } from '../session.js';

/** The signed-in frame: the client, the user's name and role, sign out, and the navigation. */
export function Layout({ api, signedIn, children }: { api: Api; signedIn: SignedIn; children: ComponentChildren }) {
  const [failure, setFailure] = useState<string | undefined>();
  const { user, client } = signedIn;

  async function onSignOut() {
    setFailure(undefined);
    try {
      await signOut(api);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <>
      <header class="top">
        <a class="brand" href={pathOf('overview')} onClick={(event) => (event.preventDefault(), navigate('overview'))}>
          {client.name}
        </a>
        <nav aria-label="Dashboard">
          <a href={pathOf('overview')} aria-current="page" onClick={(event) => (event.preventDefault(), navigate('overview'))}>
            Overview
          </a>
        </nav>
        <div class="account">
          <span>
            {user.name} <span class="role">{user.role_name}</span>
          </span>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      {failure && (
        <p role="alert" class="error banner">
          {failure}
        </p>
      )}
      <main>{children}</main>
    </>
  );
}

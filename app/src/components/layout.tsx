import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DashboardPage } from '../../../shared/http/dashboard-pages.js';
import type { Api } from '../api/client.js';
import { entryOf, SIGNED_IN_PAGES } from '../page.js';
import { type SignedIn, can, signOut } from '../session.js';
import { Link } from './link.js';

/** The signed-in frame: the client, the user's name and role, sign out, and the navigation (by role). */
export function Layout(props: { api: Api; signedIn: SignedIn; page: DashboardPage | undefined; children: ComponentChildren }) {
  const { api, signedIn, page, children } = props;
  const [failure, setFailure] = useState<string | undefined>();
  const { user, client } = signedIn;
  const title = page ? entryOf(page).title : undefined;

  useEffect(() => {
    document.title = title ? `${title} · ${client.name}` : client.name;
  }, [title, client.name]);

  async function onSignOut() {
    setFailure(undefined);
    try {
      await signOut(api);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  }

  const links = SIGNED_IN_PAGES.filter((entry) => entry.nav && can(signedIn, entry.permission ?? 'read'));
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <Link class="brand" page="overview">
          {client.name}
        </Link>
        <nav aria-label="Dashboard">
          {links.map((entry) => (
            <Link key={entry.page} page={entry.page} current={entry.page === page}>
              {entry.title}
            </Link>
          ))}
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
      <main id="content" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { DashboardPage } from '../../../shared/http/dashboard-pages.js';
import type { Api } from '../api/client.js';
import { entryOf, SIGNED_IN_PAGES } from '../page.js';
import { useAction } from '../data/use-action.js';
import { type SignedIn, can, signOut } from '../session.js';
import { FailureAlert } from '../ui/failure-alert.js';
import { Link } from './link.js';

/** The signed-in frame: the client, the user's name and role, sign out, and the navigation (by role). */
export function Layout(props: {
  api: Api;
  signedIn: SignedIn;
  page: DashboardPage | undefined;
  children: ComponentChildren;
}) {
  const { api, signedIn, page, children } = props;
  const signingOut = useAction(() => signOut(api));
  const { user, client } = signedIn;
  const title = page ? entryOf(page).title : undefined;

  useEffect(() => {
    document.title = title ? `${title} · ${client.name}` : client.name;
  }, [title, client.name]);

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
          <button type="button" onClick={signingOut.run}>
            Sign out
          </button>
        </div>
      </header>
      {signingOut.failure && (
        <div class="banner">
          <FailureAlert failure={signingOut.failure} />
        </div>
      )}
      <main id="content" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

import { useEffect } from 'preact/hooks';
import type { Api } from './api/client.js';
import { Layout } from './components/layout.js';
import { useLoad } from './data/use-load.js';
import { entryOf, type SignedInPage } from './page.js';
import { PAGE_COMPONENTS } from './pages/registry.js';
import { SignInPage } from './pages/sign-in.js';
import { followHistory, navigate, route } from './router.js';
import { can, loadSession, session } from './session.js';

/** The app: who is signed in decides between the sign-in page and the signed-in pages. */
export function App({ api }: { api: Api }) {
  useEffect(() => followHistory(), []);
  // Who is signed in lands in the `session` signal; the load itself only says whether it failed.
  const start = useLoad(() => loadSession(api), [api]);
  const failure = start.failure?.message;

  const { page, params } = route.value;
  const signedIn = session.value;

  useEffect(() => {
    if (signedIn === null && page !== 'sign-in') navigate('sign-in', {}, { replace: true });
    if (signedIn && (page === 'sign-in' || page === 'home')) navigate('overview', {}, { replace: true });
  }, [signedIn, page]);

  if (failure) {
    return (
      <main class="centered">
        <h1>The dashboard cannot start</h1>
        <p role="alert">{failure}</p>
      </main>
    );
  }
  if (signedIn === undefined) {
    return (
      <main class="centered" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  if (signedIn === null) return <SignInPage api={api} />;
  const shown: SignedInPage | undefined =
    page === 'home' || page === 'unknown' || page === 'sign-in' ? undefined : page;
  const Page = shown && can(signedIn, entryOf(shown).permission ?? 'read') ? PAGE_COMPONENTS[shown] : undefined;
  return (
    <Layout api={api} signedIn={signedIn} page={shown}>
      {Page ? (
        <Page api={api} params={params} signedIn={signedIn} />
      ) : page === 'home' || page === 'sign-in' ? null : (
        <section>
          <h1>Not found</h1>
          <p>No such page of the dashboard.</p>
        </section>
      )}
    </Layout>
  );
}

/**
 * Whether a POST that starts a session came from a page of this origin (login CSRF): a browser says where a request
 * comes from in `Sec-Fetch-Site` (every current browser) and, on a POST, in `Origin`. Only `same-origin` passes —
 * `same-site` too is refused, since another host of the site (a links host, a preview) is not this page. A request
 * with neither header is no browser's form (a script or a test's HTTP client); it passes, and the link still needs the
 * browser's sign-in cookie or the confirmation its page asks for.
 */
export function isSameOriginPost(headers: Readonly<Record<string, string | undefined>>): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = headers['origin'];
  if (origin === undefined) return true;
  const host = headers['host'];
  if (!host || !URL.canParse(origin)) return false; // `Origin: null` (a sandboxed frame, a redirect across sites)
  return new URL(origin).host === host.toLowerCase();
}

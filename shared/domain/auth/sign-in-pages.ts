/** The one page a sign-in link that cannot be used answers with (no script, nothing from another origin). */
export const signInLinkInvalidPage = (signInUrl: string): string => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Sign-in link not valid</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1F2937}</style>
</head><body><h1>This sign-in link cannot be used</h1>
<p>It was already used, it has expired (a link works once, for 15 minutes), or it was copied incompletely.</p>
<p><a href="${signInUrl.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}">Ask for a new link</a></p></body></html>`;

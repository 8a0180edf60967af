/**
 * The pages behind the links in e-mails. Plain, self-contained HTML (no scripts, no external assets): they open in
 * any browser and in mail scanners, and say only what the person needs.
 */
const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const layout = (title: string, body: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1F2937}
button{font-size:1rem;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#2563EB;color:#fff;cursor:pointer}</style>
</head><body>${body}</body></html>`;

/** GET /u/{token}: asks; changes nothing (mail scanners prefetch links). */
export const unsubscribeQuestionPage = (address: string) =>
  layout(
    'Unsubscribe',
    `<h1>Unsubscribe?</h1><p>Stop these e-mails to <strong>${escape(address)}</strong>.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );

export const unsubscribedPage = (address: string) =>
  layout('Unsubscribed', `<h1>You are unsubscribed</h1><p><strong>${escape(address)}</strong> will not get these e-mails any more.</p>`);

export const linkNotFoundPage = () =>
  layout('Link not found', '<h1>This link is not valid</h1><p>It may have been copied incompletely.</p>');

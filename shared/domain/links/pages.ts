/**
 * The pages behind the links in e-mails. Plain, self-contained HTML (no scripts, no external assets): they open in
 * any browser and in mail scanners, and say only what the person needs.
 */
import { escapeHtml } from '../html/escape-html.js';

const layout = (title: string, body: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1F2937}
button{font-size:1rem;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#2563EB;color:#fff;cursor:pointer}</style>
</head><body>${body}</body></html>`;

export const unsubscribedPage = (address: string) =>
  layout(
    'Unsubscribed',
    `<h1>You are unsubscribed</h1><p><strong>${escapeHtml(address)}</strong> will not get these e-mails any more.</p>`,
  );

export const linkNotFoundPage = () =>
  layout('Link not found', '<h1>This link is not valid</h1><p>It may have been copied incompletely.</p>');

/** The preference page's content-security policy: nothing from another origin, no script, forms post here only. */
export const PREFERENCE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** What the preference page needs (shared/domain/links/preferences.ts builds it). */
export interface PreferencePageView {
  address: string;
  brand: { name: string; color?: string };
  leftAll: boolean;
  topics: { topic: { id: number; name: string; description: string }; subscribed: boolean }[];
}

const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/**
 * GET /u/{token} and the answer to its save, and the dashboard's preview of it (`preview`: a banner
 * "Preview: nothing is saved", every control disabled, the form posting nowhere): the client's brand, every topic with its state as a
 * checkbox, the choice to leave all marketing mail, one save button. A plain form POST to the same address (no
 * script), labels on every control (keyboard and screen readers), one column that fits a phone, nothing loaded from
 * another origin (the brand is its name and colour; a logo would be another origin's image).
 */
export function preferencePage(view: PreferencePageView, saved = false, preview = false): string {
  const accent = view.brand.color && HEX_COLOR.test(view.brand.color) ? view.brand.color : '#2563EB';
  const topics = view.topics
    .map(
      ({ topic, subscribed }) =>
        `<div class="choice"><input type="hidden" name="shown" value="${topic.id}">` +
        `<input type="checkbox" id="topic-${topic.id}" name="topic" value="${topic.id}"${subscribed ? ' checked' : ''}>` +
        `<label for="topic-${topic.id}"><strong>${escapeHtml(topic.name)}</strong>` +
        (topic.description ? `<span>${escapeHtml(topic.description)}</span>` : '') +
        '</label></div>',
    )
    .join('\n');
  const all = view.leftAll
    ? `<p class="note">You left all marketing e-mail from ${escapeHtml(view.brand.name)}: you get none of the topics above, whatever they say. ` +
      `Only ${escapeHtml(view.brand.name)} can add you back.</p>`
    : `<div class="choice"><input type="checkbox" id="leave-all" name="leave_all" value="on">` +
      `<label for="leave-all"><strong>Leave all marketing e-mail</strong><span>No news, tips or offers from ${escapeHtml(view.brand.name)}, whatever you choose above.</span></label></div>`;
  const body =
    `<header style="border-top:6px solid ${accent}"><p class="brand">${escapeHtml(view.brand.name)}</p></header>` +
    `<main><h1>Your e-mail preferences</h1><p>For <strong>${escapeHtml(view.address)}</strong>.</p>` +
    (saved ? '<p role="status" class="saved">Your choices are saved.</p>' : '') +
    (preview
      ? `<p class="preview"><strong>Preview: nothing is saved.</strong> This is the page your contacts see, for a contact who never chose: every topic at its default.</p>`
      : '') +
    // The preview's form posts nowhere: a disabled fieldset disables every control in it, the button included.
    (preview
      ? '<form><fieldset class="frame" disabled>'
      : `<form method="post"><input type="hidden" name="form" value="preferences">`) +
    (view.topics.length > 0 ? `<fieldset><legend>Send me e-mail about</legend>\n${topics}\n</fieldset>` : '') +
    `<fieldset><legend>All marketing e-mail</legend>${all}</fieldset>` +
    `<p class="note">Messages about your account, such as a failed payment, are always sent.</p>` +
    `<button type="submit">Save my choices</button>${preview ? '</fieldset>' : ''}</form></main>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>E-mail preferences – ${escapeHtml(view.brand.name)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:0 auto;padding:0 1rem 2rem;color:#1F2937;line-height:1.5}
header{padding-top:1rem}.brand{font-weight:bold;margin:0}h1{font-size:1.5rem}fieldset{border:1px solid #D1D5DB;border-radius:.4rem;margin:0 0 1rem;padding:.5rem 1rem}
legend{font-weight:bold;padding:0 .3rem}.choice{display:flex;gap:.75rem;align-items:flex-start;padding:.6rem 0}
.choice input{width:1.4rem;height:1.4rem;margin:.15rem 0 0;flex:none}label{cursor:pointer}label span{display:block;color:#4B5563;font-size:.95rem}
.note{color:#4B5563;font-size:.95rem}.frame{border:0;margin:0;padding:0}.preview{background:#FEF3C7;border:1px solid #F59E0B;border-radius:.4rem;padding:.5rem .8rem}
button:disabled{background:#6B7280;cursor:not-allowed}.saved{background:#ECFDF5;border:1px solid #10B981;border-radius:.4rem;padding:.5rem .8rem}
button{font-size:1rem;padding:.75rem 1.4rem;border:0;border-radius:.4rem;background:#1D4ED8;color:#fff;cursor:pointer;min-height:44px}
:focus-visible{outline:3px solid #F59E0B;outline-offset:2px}</style>
</head><body>${body}</body></html>`;
}

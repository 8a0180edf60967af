/**
 * The route table: the single place an HTTP endpoint is declared.
 * infra/ builds one API Gateway route + Lambda per entry; local/server.ts serves the same entries.
 */
import { OPENAPI_DOCUMENT_FILE } from '../shared/http/openapi-file.js';
import { API_REFERENCE_FILES } from '../shared/http/api-reference.js';
import { DASHBOARD_FILES, DASHBOARD_PAGE_FILES } from '../shared/http/dashboard-app.js';
import type { RouteDefinition } from '../shared/http/route-definition.js';

// The table's readers (infra/, local/, tests) take the route's shape and helpers from here with the table.
export {
  API_BASE_PATH,
  authenticates,
  fullPath,
  routeKey,
  type HttpMethod,
  type RouteDefinition,
  type TableAccess,
} from '../shared/http/route-definition.js';

export const routes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/health', handler: 'health', tableAccess: 'read' },
  // The OpenAPI document (docs/openapi.json, a file beside the bundle): no authentication, no table access used.
  {
    method: 'GET',
    path: '/openapi.json',
    handler: 'openapi',
    tableAccess: 'read',
    bareJson: true,
    staticFiles: OPENAPI_DOCUMENT_FILE,
  },
  // The rendered reference of that document (Swagger UI), and its files, served by the service itself.
  { method: 'GET', path: '/docs', handler: 'api-docs', tableAccess: 'read', html: true },
  {
    method: 'GET',
    path: '/docs/assets/{file}',
    handler: 'api-docs-assets',
    tableAccess: 'read',
    html: true,
    staticFiles: API_REFERENCE_FILES,
  },
  // The dashboard, at the API's root: its HTML, its pages and content-hashed files (app/dist, built by
  // scripts/dashboard/build.ts), and its records' pages (`/app/contact/42`), all the same HTML.
  {
    method: 'GET',
    path: '/app',
    handler: 'app-page',
    tableAccess: 'read',
    root: true,
    html: true,
    staticFiles: DASHBOARD_PAGE_FILES,
  },
  {
    method: 'GET',
    path: '/app/{name}',
    handler: 'app-files',
    tableAccess: 'read',
    root: true,
    html: true,
    staticFiles: DASHBOARD_FILES,
  },
  {
    method: 'GET',
    path: '/app/{name}/{id}',
    handler: 'app-record',
    tableAccess: 'read',
    root: true,
    html: true,
    staticFiles: DASHBOARD_PAGE_FILES,
  },
  { method: 'POST', path: '/client/api-keys/rotate', handler: 'api-keys-rotate', tableAccess: 'readWrite' },
  // The dashboard's API keys, with labels (owners and admins, sessions only).
  { method: 'GET', path: '/client/api-keys', handler: 'api-keys-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/api-keys', handler: 'api-keys-create', tableAccess: 'readWrite' },
  { method: 'PATCH', path: '/client/api-keys/{id}', handler: 'api-keys-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/api-keys/{id}', handler: 'api-keys-delete', tableAccess: 'readWrite' },
  // Dashboard accounts: passwordless sign-in by e-mail, sessions in cookies, users with roles.
  // The e-mail goes out after the answer (send-system-mail), so the answer's time says nothing about the address.
  {
    method: 'POST',
    path: '/auth/sign-in',
    handler: 'auth-sign-in',
    tableAccess: 'readWrite',
    sendsTo: ['system-mail'],
  },
  // The link's page (GET, HEAD: read only, so mail scanners burn nothing) and its button (POST: signs in).
  { method: 'GET', path: '/auth/callback', handler: 'auth-callback', tableAccess: 'read', html: true },
  { method: 'POST', path: '/auth/callback', handler: 'auth-callback-confirm', tableAccess: 'readWrite', html: true },
  { method: 'POST', path: '/auth/sign-out', handler: 'auth-sign-out', tableAccess: 'readWrite' },
  { method: 'GET', path: '/auth/me', handler: 'auth-me', tableAccess: 'read' },
  { method: 'GET', path: '/client/users', handler: 'users-list', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/users',
    handler: 'users-invite',
    tableAccess: 'readWrite',
    sendsTo: ['system-mail'],
  },
  { method: 'PATCH', path: '/client/users/{id}', handler: 'users-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/users/{id}', handler: 'users-delete', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/contacts', handler: 'contacts-create', tableAccess: 'readWrite' },
  // Extra: the client's contacts, filtered, cursor pages (the cursor is signed with the link secret).
  { method: 'GET', path: '/client/contacts', handler: 'contacts-list', tableAccess: 'read', usesLinkSecret: true },
  { method: 'GET', path: '/client/contacts/{id}', handler: 'contacts-get', tableAccess: 'read' },
  // Extra: partial update; an e-mail or client_contact_id change moves its lock in the same transaction.
  { method: 'PATCH', path: '/client/contacts/{id}', handler: 'contacts-update', tableAccess: 'readWrite' },
  // Extra: erasure (GDPR Art. 17); finds the contact's history through gsi2, scrubs it, leaves a tombstone.
  {
    method: 'DELETE',
    path: '/client/contacts/{id}',
    handler: 'contacts-delete',
    tableAccess: 'readWrite',
    timeoutSeconds: 29,
  },
  // One contact's timeline from its gsi2 history, newest first; cursors are signed with the link secret.
  {
    method: 'GET',
    path: '/client/contacts/{id}/activity',
    handler: 'contacts-activity',
    tableAccess: 'read',
    usesLinkSecret: true,
  },
  {
    method: 'PATCH',
    path: '/client/contacts/{id}/subscription',
    handler: 'contacts-subscription-update',
    tableAccess: 'readWrite',
  },
  // Bulk imports: up to BULK_IMPORT_LIMIT rows in a fixed number of request waves; API Gateway caps at 30 s.
  {
    method: 'POST',
    path: '/client/contacts/bulk',
    handler: 'contacts-bulk',
    tableAccess: 'readWrite',
    timeoutSeconds: 29,
    memoryMb: 1024,
    ingest: true,
  },
  {
    method: 'POST',
    path: '/client/contacts/bulk/csv',
    handler: 'contacts-bulk-csv',
    tableAccess: 'readWrite',
    timeoutSeconds: 29,
    memoryMb: 1024,
    ingest: true,
  },
  { method: 'GET', path: '/client/settings', handler: 'settings-get', tableAccess: 'read' },
  { method: 'PATCH', path: '/client/settings', handler: 'settings-update', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/email-templates/list', handler: 'email-templates-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/email-templates', handler: 'email-templates-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/email-templates/{id}', handler: 'email-templates-get', tableAccess: 'read' },
  {
    method: 'PATCH',
    path: '/client/email-templates/{id}',
    handler: 'email-templates-update',
    tableAccess: 'readWrite',
  },
  {
    method: 'DELETE',
    path: '/client/email-templates/{id}',
    handler: 'email-templates-delete',
    tableAccess: 'readWrite',
  },
  // Outbound webhook endpoints (Standard Webhooks); /test posts to the client's URL (10 s, SSRF-checked).
  { method: 'POST', path: '/client/webhooks', handler: 'webhooks-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/webhooks', handler: 'webhooks-list', tableAccess: 'read' },
  { method: 'GET', path: '/client/webhooks/{id}', handler: 'webhooks-get', tableAccess: 'read' },
  { method: 'PATCH', path: '/client/webhooks/{id}', handler: 'webhooks-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/webhooks/{id}', handler: 'webhooks-delete', tableAccess: 'readWrite' },
  {
    method: 'POST',
    path: '/client/webhooks/{id}/rotate-secret',
    handler: 'webhooks-rotate-secret',
    tableAccess: 'readWrite',
  },
  {
    method: 'POST',
    path: '/client/webhooks/{id}/test',
    handler: 'webhooks-test',
    tableAccess: 'read',
    timeoutSeconds: 15,
  },
  { method: 'GET', path: '/client/webhooks/{id}/attempts', handler: 'webhooks-attempts-list', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/webhooks/{id}/attempts/{attempt_id}/replay',
    handler: 'webhooks-attempts-replay',
    tableAccess: 'read',
    sendsTo: ['webhooks'],
  },
  {
    method: 'POST',
    path: '/client/email-templates/{id}/render-preview',
    handler: 'email-templates-render-preview',
    tableAccess: 'read',
  },
  // The same render as a sandboxed document (shared/http/email-document.ts): the editor's preview frame posts its form here.
  {
    method: 'POST',
    path: '/client/email-templates/{id}/html',
    handler: 'email-templates-html',
    tableAccess: 'read',
    html: true,
  },
  { method: 'GET', path: '/client/workflows', handler: 'workflows-list', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/workflows/{workflow_id}/clone-template',
    handler: 'workflows-clone-template',
    tableAccess: 'readWrite',
  },
  {
    method: 'PATCH',
    path: '/client/workflows/{workflow_id}/customization',
    handler: 'workflows-customization-update',
    tableAccess: 'readWrite',
  },
  // The engine. Sync events are processed in the request and may dispatch executions.
  {
    method: 'POST',
    path: '/client/events',
    handler: 'events-create',
    tableAccess: 'readWrite',
    sendsTo: ['events', 'workflow'],
    schedules: true,
    ingest: true,
  },
  { method: 'GET', path: '/client/events/{id}', handler: 'events-get', tableAccess: 'read' },
  { method: 'GET', path: '/client/executions', handler: 'executions-list', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/executions/{execution_id}/retry',
    handler: 'executions-retry',
    tableAccess: 'readWrite',
    sendsTo: ['workflow'],
    schedules: true,
  },
  { method: 'GET', path: '/client/sent-emails/{id}', handler: 'sent-emails-get', tableAccess: 'read' },
  // Its HTML as a sandboxed document of its own, for the dashboard's frame (never run on the dashboard's origin).
  {
    method: 'GET',
    path: '/client/sent-emails/{id}/html',
    handler: 'sent-emails-html',
    tableAccess: 'read',
    html: true,
  },
  // Public links in e-mails (no auth; signed tokens): GET never changes anything, POST is RFC 8058 one-click.
  {
    method: 'GET',
    path: '/u/{token}',
    handler: 'unsubscribe-page',
    tableAccess: 'read',
    root: true,
    html: true,
    usesLinkSecret: true,
  },
  {
    method: 'POST',
    path: '/u/{token}',
    handler: 'unsubscribe-confirm',
    tableAccess: 'readWrite',
    root: true,
    html: true,
    usesLinkSecret: true,
  },
  {
    method: 'GET',
    path: '/v/{token}',
    handler: 'view-in-browser',
    tableAccess: 'read',
    root: true,
    html: true,
    usesLinkSecret: true,
  },
  // Local runtime only (never on AWS): replays an SES status notification through the status queue.
  {
    method: 'POST',
    path: '/dev/ses-events',
    handler: 'dev-ses-events',
    tableAccess: 'read',
    sendsTo: ['ses-status'],
    localOnly: true,
  },
  // Local runtime only: its DNS, where a developer publishes a sending domain's records (DNS_RESOLVER=local).
  {
    method: 'PUT',
    path: '/dev/dns-records',
    handler: 'dev-dns-records-put',
    tableAccess: 'readWrite',
    localOnly: true,
  },
  { method: 'GET', path: '/dev/dns-records', handler: 'dev-dns-records-get', tableAccess: 'read', localOnly: true },
  {
    method: 'DELETE',
    path: '/dev/dns-records',
    handler: 'dev-dns-records-delete',
    tableAccess: 'readWrite',
    localOnly: true,
  },
  // Local runtime only: pauses or resumes a client's tenant in the local SES, as SES's reputation policy would.
  {
    method: 'POST',
    path: '/dev/ses-tenants/{tenant}/status',
    handler: 'dev-ses-tenants-status',
    tableAccess: 'readWrite',
    localOnly: true,
  },
  // Local runtime only: moves the in-process queue's dead letters back (on AWS: `admin redrive --aws`).
  {
    method: 'POST',
    path: '/dev/queues/{queue}/redrive',
    handler: 'dev-queues-redrive',
    tableAccess: 'read',
    localOnly: true,
  },
  // Analytics: day counters kept by the change stream's projection, read in one Query.
  { method: 'GET', path: '/client/stats', handler: 'stats-get', tableAccess: 'read' },
  { method: 'GET', path: '/client/workflows/{workflow_id}/stats', handler: 'workflows-stats', tableAccess: 'read' },
  // Topics of marketing mail: one item per client.
  { method: 'GET', path: '/client/topics', handler: 'topics-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/topics', handler: 'topics-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/topics/{id}', handler: 'topics-get', tableAccess: 'read' },
  { method: 'PATCH', path: '/client/topics/{id}', handler: 'topics-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/topics/{id}', handler: 'topics-delete', tableAccess: 'readWrite' },
  // The preference page as a contact sees it (same renderer and CSP), read-only, for the dashboard's Topics page.
  {
    method: 'GET',
    path: '/client/topics/preference-page-preview',
    handler: 'topics-preference-preview',
    tableAccess: 'read',
    html: true,
  },
  // Sending domains: claims proven by a TXT record, then verified by SES (DKIM); checked by poll-domains too.
  { method: 'GET', path: '/client/domains', handler: 'domains-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/domains', handler: 'domains-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/domains/{id}', handler: 'domains-get', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/domains/{id}/verify',
    handler: 'domains-verify',
    tableAccess: 'readWrite',
    managesSenders: true,
  },
  {
    method: 'DELETE',
    path: '/client/domains/{id}',
    handler: 'domains-delete',
    tableAccess: 'readWrite',
    managesSenders: true,
  },
  // Segments: saved condition trees whose members the change stream keeps; broadcasts to them, paced by the engine.
  { method: 'GET', path: '/client/segments', handler: 'segments-list', tableAccess: 'read' },
  {
    method: 'POST',
    path: '/client/segments',
    handler: 'segments-create',
    tableAccess: 'readWrite',
    sendsTo: ['segments'],
  },
  { method: 'POST', path: '/client/segments/preview', handler: 'segments-preview', tableAccess: 'read' },
  { method: 'GET', path: '/client/segments/{id}', handler: 'segments-get', tableAccess: 'read' },
  {
    method: 'PATCH',
    path: '/client/segments/{id}',
    handler: 'segments-update',
    tableAccess: 'readWrite',
    sendsTo: ['segments'],
  },
  {
    method: 'DELETE',
    path: '/client/segments/{id}',
    handler: 'segments-delete',
    tableAccess: 'readWrite',
    sendsTo: ['segments'],
  },
  { method: 'GET', path: '/client/segments/{id}/contacts', handler: 'segments-members', tableAccess: 'read' },
  { method: 'GET', path: '/client/broadcasts', handler: 'broadcasts-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/broadcasts', handler: 'broadcasts-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/broadcasts/{id}', handler: 'broadcasts-get', tableAccess: 'read' },
  { method: 'PUT', path: '/client/broadcasts/{id}', handler: 'broadcasts-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/broadcasts/{id}', handler: 'broadcasts-delete', tableAccess: 'readWrite' },
  // Who a broadcast went to, each with its status; and the same as CSV pages (signed cursors).
  {
    method: 'GET',
    path: '/client/broadcasts/{id}/recipients',
    handler: 'broadcasts-recipients',
    tableAccess: 'read',
    usesLinkSecret: true,
  },
  {
    method: 'GET',
    path: '/client/broadcasts/{id}/recipients/export',
    handler: 'broadcasts-recipients-export',
    tableAccess: 'read',
    usesLinkSecret: true,
    html: true,
  },
  // A test goes to the client's own users only, from its sender through SES now (no execution, nothing counted).
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/test',
    handler: 'broadcasts-test',
    tableAccess: 'readWrite',
    sendsEmail: true,
    timeoutSeconds: 15,
  },
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/schedule',
    handler: 'broadcasts-schedule',
    tableAccess: 'readWrite',
    sendsTo: ['broadcast'],
    schedules: true,
  },
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/pause',
    handler: 'broadcasts-pause',
    tableAccess: 'readWrite',
  },
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/resume',
    handler: 'broadcasts-resume',
    tableAccess: 'readWrite',
    sendsTo: ['broadcast'],
    schedules: true,
  },
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/cancel',
    handler: 'broadcasts-cancel',
    tableAccess: 'readWrite',
    sendsTo: ['broadcast'],
    schedules: true,
  },
  // A child broadcast to the parent's non-openers (read from its recipients when the child starts).
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/resend',
    handler: 'broadcasts-resend',
    tableAccess: 'readWrite',
    sendsTo: ['broadcast'],
    schedules: true,
  },
  // Failed recipients sent again by a paged job (the broadcast queue), at the broadcast's pace.
  {
    method: 'POST',
    path: '/client/broadcasts/{id}/retry-failed',
    handler: 'broadcasts-retry-failed',
    tableAccess: 'read',
    sendsTo: ['broadcast'],
  },
  // Journeys a client writes: drafts, immutable versions, and the index event processing reads (1–8: the workflows).
  { method: 'GET', path: '/client/journeys', handler: 'journeys-list', tableAccess: 'read' },
  { method: 'POST', path: '/client/journeys', handler: 'journeys-create', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/journeys/{id}', handler: 'journeys-get', tableAccess: 'read' },
  { method: 'PATCH', path: '/client/journeys/{id}', handler: 'journeys-update', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/client/journeys/{id}', handler: 'journeys-delete', tableAccess: 'readWrite' },
  { method: 'PUT', path: '/client/journeys/{id}/draft', handler: 'journeys-draft-save', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/journeys/{id}/validate', handler: 'journeys-validate', tableAccess: 'read' },
  { method: 'POST', path: '/client/journeys/{id}/publish', handler: 'journeys-publish', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/journeys/{id}/pause', handler: 'journeys-pause', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/journeys/{id}/resume', handler: 'journeys-resume', tableAccess: 'readWrite' },
  { method: 'POST', path: '/client/journeys/{id}/archive', handler: 'journeys-archive', tableAccess: 'readWrite' },
  { method: 'GET', path: '/client/journeys/{id}/versions', handler: 'journeys-versions-list', tableAccess: 'read' },
  {
    method: 'GET',
    path: '/client/journeys/{id}/versions/{version}',
    handler: 'journeys-versions-get',
    tableAccess: 'read',
  },
  { method: 'GET', path: '/client/journeys/{id}/diff', handler: 'journeys-diff', tableAccess: 'read' },
  { method: 'GET', path: '/client/journeys/{id}/stats', handler: 'journeys-stats', tableAccess: 'read' },
  {
    method: 'GET',
    path: '/client/workflows/{workflow_id}/customization/audit',
    handler: 'workflows-customization-audit',
    tableAccess: 'read',
  },
];

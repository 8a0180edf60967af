/** What the OpenAPI document says about the API as a whole: version, introduction, servers, tags, security schemes. */
import type { OpenApiDocument } from './build-document.js';

/** The interface version SPEC.md gives (its "Versioning" section). */
export const API_VERSION = '1.38.0';

/** The document's introduction (Markdown). */
export const DESCRIPTION = `The client-facing API of the e-mail lifecycle service: contacts, e-mail templates, workflow \
customization, events, executions, sent e-mails, client settings and API keys.

Every JSON answer is the envelope \`{data, errors, message, meta, success}\`; \`meta.request_id\` identifies the request. \
A failure has \`data: {}\` and one \`ErrorItem\` per problem (\`condition\`, \`error\`, \`key\` = the dotted field path); \
all field problems of a request are reported at once.

Authenticate with \`Authorization: Bearer <API key>\` (\`els_…\`) or a JWT bearer token; the dashboard uses a session \
cookie (\`els_session\`, after a sign-in by e-mail link) whose role decides what it may do. Every operation under \
\`/api/v1/client\` acts only on the authenticated client's data; another client's record is answered like a missing one (404).

Operations marked *Extra* go beyond the original contract; docs/api-guide.md in the repository documents them.`;

export const SERVERS: OpenApiDocument['servers'] = [
  // The audience (x-internal) and environment of each server, as API inventories read them (OWASP API9).
  {
    url: 'http://127.0.0.1:3000',
    description: 'The local runtime for development (`npm start`; PORT defaults to 3000)',
    'x-internal': true,
  },
  {
    url: 'https://{api_id}.execute-api.{region}.amazonaws.com',
    description:
      'AWS, staging or production: the HTTP API `npx cdk deploy` creates (the stack output ApiUrl, without /api/v1)',
    'x-internal': false,
    variables: {
      api_id: { default: 'api-id', description: 'The HTTP API id' },
      region: { default: 'eu-west-1', description: 'The AWS region of the stack' },
    },
  },
];

/** The tags, by the path segment after `/client` they stand for; in the order a reader meets the resources. */
export const TAGS: { slug: string; name: string; description: string }[] = [
  { slug: 'contacts', name: 'Contacts', description: 'Recipients owned by the client' },
  {
    slug: 'email-templates',
    name: 'Email templates',
    description: 'Message content: system templates and the client’s own',
  },
  { slug: 'workflows', name: 'Workflows', description: 'Lifecycle workflows and the client’s overrides of them' },
  { slug: 'events', name: 'Events', description: 'Business occurrences that drive workflows' },
  { slug: 'executions', name: 'Executions', description: 'Runs of a workflow for a contact' },
  { slug: 'sent-emails', name: 'Sent emails', description: 'E-mails sent, with their delivery and engagement history' },
  { slug: 'settings', name: 'Settings', description: 'Branding, sender identity, send windows and quotas' },
  {
    slug: 'domains',
    name: 'Domains',
    description: 'Sending domains: proven by a DNS record, then verified for DKIM; From addresses live at them',
  },
  { slug: 'topics', name: 'Topics', description: 'Kinds of marketing mail a contact can leave on its own' },
  { slug: 'stats', name: 'Stats', description: 'Day counters of events, sends and engagement' },
  { slug: 'webhooks', name: 'Webhooks', description: 'Endpoints that receive signed facts (Standard Webhooks)' },
  { slug: 'api-keys', name: 'API keys', description: 'The client’s API keys' },
  { slug: 'users', name: 'Users', description: 'The dashboard’s users and their roles (sessions only)' },
  {
    slug: 'auth',
    name: 'Sign-in',
    description: 'Passwordless sign-in to the dashboard by e-mail link, the session, sign-out',
  },
  {
    slug: 'public-links',
    name: 'Public links',
    description: 'The unsubscribe and view-in-browser links in e-mails: HTML pages, no authentication',
  },
  {
    slug: 'service',
    name: 'Service',
    description: 'Health, this document and its rendered reference; no authentication',
  },
];

/** API key or JWT, both bearer tokens in `Authorization`: what `jsonApi` accepts. */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'els_… API key',
    description:
      'An API key: `els_` + 40 base62 characters, sent as `Authorization: Bearer <key>` (the raw key as the header ' +
      'value is accepted too). Rotate it with POST /api/v1/client/api-keys/rotate.',
  },
  jwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A JWT bearer token naming the client, from the identity provider the deployment is configured with.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'els_session',
    description:
      'A dashboard session: the cookie GET /api/v1/auth/callback sets after a sign-in by e-mail link. Used ' +
      'only when no Authorization header is sent. Its role decides what it may do (each operation says which roles; ' +
      'another role gets 403 `forbidden`, key `role`); a POST, PATCH or DELETE also needs the `X-CSRF-Token` header ' +
      'equal to the `els_csrf` cookie (double submit; 403 `forbidden`, key `csrf`, otherwise).',
  },
};

import { getContainer, type Container } from '../shared/composition/container.js';
import { clientAdminDeps } from '../shared/composition/providers/client-admin.js';
import { createClient } from '../shared/domain/clients/create-client.js';
import { listClients } from '../shared/domain/clients/list-clients.js';
import { verifyLocalDomain } from './local-domains.js';

export const DEMO_CLIENT = { email: 'demo@example.com', name: 'Demo Company', plan: 'growth' } as const;

/**
 * The demo client's sending domain, verified through the local DNS and SES registry when the client is made: it sets
 * no From, so its e-mails go From no-reply@demo-company.example, outside the sandbox, to any contact.
 */
export const DEMO_DOMAIN = 'demo-company.example';

/**
 * On an empty store, creates the demo client, with its owner (the dashboard user demo@example.com) and its verified
 * domain (DEMO_DOMAIN), and returns lines
 * showing its API key — the only time the key can be shown, since only its digest is stored — and where to sign in.
 * On a persisted store (DATA_DIR) it says which clients already exist.
 */
export async function ensureDemoClient(baseUrl: string, container: Container = getContainer()): Promise<string[]> {
  const deps = clientAdminDeps(container);
  const existing = await listClients(deps);
  if (existing.length === 0) {
    const demo = await createClient(deps, DEMO_CLIENT);
    await verifyLocalDomain(container, demo.id, DEMO_DOMAIN);
    return [
      `Demo client created: id ${demo.id}, client_id ${demo.client_id}, ${DEMO_CLIENT.email} (plan ${DEMO_CLIENT.plan})`,
      `  Sending domain ${DEMO_DOMAIN} verified locally: its e-mails go From no-reply@${DEMO_DOMAIN}`,
      `  API key (shown only now): ${demo.api_key}`,
      `  try:  curl -s -X POST ${baseUrl}/client/contacts -H "Authorization: Bearer ${demo.api_key}" \\`,
      `         -H 'content-type: application/json' -d '{"email":"ada@example.com","first_name":"Ada"}'`,
      dashboardLine(baseUrl),
    ];
  }
  const demo = existing.find((c) => c.email === DEMO_CLIENT.email);
  const lines = [`Store has ${existing.length} client(s); no demo client created.`];
  if (demo) {
    lines.push(
      `  Demo client exists: id ${demo.id}, ${demo.email}, key ${demo.masked_key}` +
        `${demo.api_key_enabled ? '' : ' (disabled)'} — its API key was printed when it was created.`,
      '  Lost it? Create another client: npm run admin -- create-client --email you@example.com --name You',
      dashboardLine(baseUrl),
    );
  }
  return lines;
}

/** Where the dashboard will be, and who signs in there: the demo client's owner, by a link the SES viewer shows. */
export function dashboardLine(baseUrl: string): string {
  return `Dashboard: ${new URL(baseUrl).origin}/app — sign in as ${DEMO_CLIENT.email} (the link arrives in the SES viewer; open it here and press Sign in)`;
}

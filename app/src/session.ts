import { signal } from '@preact/signals';
import { type Permission, type Role, roleGrants } from '../../shared/domain/users/roles.js';
import type { Api } from './api/client.js';
import type { paths } from './api/openapi.js';

/** GET /api/v1/auth/me's `data`: the user (name, role) and its client. */
export type SignedIn = paths['/api/v1/auth/me']['get']['responses'][200]['content']['application/json']['data'];

/** `undefined` while the first /auth/me is on its way, `null` signed out. */
export const session = signal<SignedIn | null | undefined>(undefined);

/** Asks the API who the session is (401 without one). */
export async function loadSession(api: Api): Promise<void> {
  const { data, response } = await api.GET('/api/v1/auth/me');
  if (data) session.value = data.data;
  else if (response.status === 401) session.value = null;
  else throw new Error(`GET /api/v1/auth/me answered ${response.status}`);
}

/** Ends the session on the server (the cookies are cleared by its answer), then here. */
export async function signOut(api: Api): Promise<void> {
  const { response } = await api.POST('/api/v1/auth/sign-out');
  // 401: the session had already ended; either way the browser holds none now.
  if (!response.ok && response.status !== 401) throw new Error(`Signing out failed (${response.status})`);
  session.value = null;
}

/** Whether the signed-in user's role holds `permission`: the app hides what the role cannot do; the API still refuses it. */
export const can = (signedIn: SignedIn, permission: Permission): boolean =>
  roleGrants(signedIn.user.role as Role, permission);

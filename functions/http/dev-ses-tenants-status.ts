import * as z from '../../shared/validation/zod.js';
import { localSenderIdentities } from '../../shared/composition/providers/local-sender-identities.js';
import { notFound } from '../../shared/errors.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

const TenantParams = z.object({
  tenant: z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9_-]+$/, 'Must be a tenant name')),
});

const TenantStatusBody = z.object({
  status: z.enum(['ENABLED', 'DISABLED']),
  /** Why, as SES's reputation finding would say; shown with the pause. */
  cause: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))),
});

/**
 * POST /api/v1/dev/ses-tenants/{tenant}/status — local runtime only (`localOnly`: never built on AWS, where SES's
 * reputation policy or an operator pauses a tenant). Pauses (DISABLED) or resumes (ENABLED) a client's tenant in the
 * local SES registry: the local SES then refuses its sends with SendingPausedException, as SES does. 404 when the
 * registry holds no such tenant.
 */
export const handler = publicApi(
  {
    summary: "Pause or resume a client's SES tenant (local runtime only)",
    params: TenantParams,
    body: TenantStatusBody,
    responses: {
      200: z.object({
        tenant: z.string(),
        status: z.enum(['ENABLED', 'DISABLED']),
        cause: z.optional(z.string()),
      }),
    },
    errors: [404],
  },
  [localSenderIdentities],
  async ({ params, body }, { deps }) => {
    const next =
      body.status === 'DISABLED' && body.cause ? { status: body.status, cause: body.cause } : { status: body.status };
    if (!(await deps.localSenderIdentities.setTenantStatus(params.tenant, next)))
      throw notFound('tenant', `No tenant ${params.tenant} in the local SES`);
    return ok({ tenant: params.tenant, ...next }, body.status === 'DISABLED' ? 'Tenant paused' : 'Tenant resumed');
  },
);

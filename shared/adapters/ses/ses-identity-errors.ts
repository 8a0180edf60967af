import { PermanentFailure } from '../../errors.js';

/**
 * How the identity and tenant calls read SES's errors. Each call is idempotent, so "already there" or "already gone"
 * is the state the caller wanted, not a failure:
 *
 * | SES error                       | on                                              | read as                     |
 * |---------------------------------|-------------------------------------------------|-----------------------------|
 * | AlreadyExistsException          | CreateTenant, CreateEmailIdentity,              | `exists`: made by an earlier |
 * |                                 | CreateTenantResourceAssociation,                | run; read it (Get…) and go on |
 * |                                 | CreateConfigurationSet(EventDestination)        |                              |
 * | NotFoundException               | GetEmailIdentity, DeleteEmailIdentity,          | `absent`: no identity, no    |
 * |                                 | DeleteTenantResourceAssociation                 | association; nothing to undo |
 * | BadRequestException             | CreateEmailIdentity,                            | `refused`: SES will not have |
 * |                                 | PutEmailIdentityMailFromAttributes              | this domain (a name it does  |
 * |                                 |                                                 | not accept); thrown as a     |
 * |                                 |                                                 | PermanentFailure, so the     |
 * |                                 |                                                 | claim fails identity_refused |
 * | NotFoundException               | GetTenant, CreateTenantResourceAssociation      | thrown: a tenant we created, |
 * |                                 |                                                 | or an identity the operator  |
 * |                                 |                                                 | must verify, is missing      |
 * | LimitExceededException          | CreateTenant, CreateEmailIdentity,              | thrown: an account quota (10 000 identities, |
 * |                                 | CreateConfigurationSet                          | 10 000 configuration sets a region) |
 * | TooManyRequestsException,       | any                                             | retried by the SDK (default   |
 * | ConcurrentModificationException,|                                                 | 3 attempts), then thrown; the |
 * | 5xx                             |                                                 | next check repeats the call   |
 *
 * Matched by name, not class, as ses-errors.ts does, so an emulator's or a second SDK copy's errors map the same way.
 */
export type IdentityErrorReading = 'exists' | 'absent' | 'refused';

const READINGS: Readonly<Record<string, IdentityErrorReading>> = {
  AlreadyExistsException: 'exists',
  NotFoundException: 'absent',
  BadRequestException: 'refused',
};

/** What the error says, when it is one of the table's; undefined for any other error (the caller throws it). */
export function identityErrorReading(error: unknown): IdentityErrorReading | undefined {
  return error instanceof Error ? READINGS[error.name] : undefined;
}

/** Runs `call`; a `refused` error becomes a PermanentFailure (`identity_refused`), anything else is rethrown. */
export async function refusedForGood<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (identityErrorReading(error) !== 'refused') throw error;
    throw new PermanentFailure('identity_refused', `SES refused ${what}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Runs `call`; answers `fallback` when it fails with the reading `expected`, rethrows anything else. */
export async function unless<T>(
  expected: IdentityErrorReading,
  call: () => Promise<T>,
  fallback: () => T | Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (identityErrorReading(error) === expected) return fallback();
    throw error;
  }
}

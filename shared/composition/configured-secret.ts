import { fixedSecret } from '../adapters/memory/fixed-secret.js';
import { SecretsManagerSecret } from '../adapters/secrets-manager/secrets-manager-secret.js';
import type { Config } from '../config.js';
import type { Secret } from '../platform.js';

/** The secrets configuration names: each is its value (`NAME`) or a Secrets Manager secret's ARN (`NAME_ARN`). */
export type SecretName = 'LINK_SECRET' | 'JWT_HS256_SECRET';

/** Both are HMAC-SHA256 keys; config.ts checks the same bound on a value given directly. */
const MIN_SECRET_LENGTH = 32;

/**
 * The secret `name` as configured: the value itself when set (locally, tests — it wins over an ARN), else the
 * Secrets Manager secret of `NAME_ARN` (AWS: the stack sets only the ARN), read on first use; undefined when neither.
 */
export function configuredSecret(config: Config, name: SecretName): Secret | undefined {
  const value = config[name];
  if (value) return fixedSecret(value);
  const arn = config[`${name}_ARN`];
  if (arn) return new SecretsManagerSecret(arn, { minLength: MIN_SECRET_LENGTH });
  return undefined;
}

/** As `configuredSecret`, for a function that cannot work without it: says what to set when neither is. */
export function requiredSecret(config: Config, name: SecretName, purpose: string): Secret {
  const secret = configuredSecret(config, name);
  if (!secret) {
    throw new Error(
      `${name} (≥ ${MIN_SECRET_LENGTH} characters) or ${name}_ARN (a Secrets Manager secret) must be set to ${purpose}`,
    );
  }
  return secret;
}

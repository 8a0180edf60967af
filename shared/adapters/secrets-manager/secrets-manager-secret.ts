import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { Secret } from '../../platform.js';

/**
 * How long a container keeps a secret's value before it reads it again. Rotation needs at most this long to reach
 * every warm container; each container reads a secret at most 12 times an hour (docs/decisions/0077-secrets-at-run-time.md, "Secrets at run
 * time").
 */
export const SECRET_CACHE_SECONDS = 300;

export interface SecretsManagerSecretOptions {
  /** Shortest value accepted (both secrets are HMAC-SHA256 keys: 32). */
  minLength: number;
  /** Default SECRET_CACHE_SECONDS. */
  maxAgeSeconds?: number;
}

/**
 * A Secrets Manager secret read with Powertools' `getSecret`, which caches the value for `maxAgeSeconds`. Nothing
 * happens before the first `value()`: Powertools builds its SDK client then, so a cold start and the requests that
 * need no secret never pay for a call. Concurrent first reads share one request.
 *
 * The import is static on purpose: a dynamic `import()` made esbuild wrap every SDK module the bundle shares with
 * this client in a lazy initialiser, which measured larger (+20 KB) and slower to load than evaluating the client's
 * module with the rest (docs/decisions/0077-secrets-at-run-time.md, "Secrets at run time").
 */
export class SecretsManagerSecret implements Secret {
  private pending?: Promise<string>;

  /** `secretId`: the secret's complete ARN (its name would do within the account). */
  constructor(
    private readonly secretId: string,
    private readonly options: SecretsManagerSecretOptions,
  ) {}

  value(): Promise<string> {
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async read(): Promise<string> {
    const value = await getSecret(this.secretId, { maxAge: this.options.maxAgeSeconds ?? SECRET_CACHE_SECONDS });
    // Never the value in the message: it ends in logs.
    if (typeof value !== 'string' || value.length < this.options.minLength) {
      throw new Error(
        `Secret ${this.secretId} must hold a text value of at least ${this.options.minLength} characters`,
      );
    }
    return value;
  }
}

import { clearCaches } from '@aws-lambda-powertools/parameters';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SECRET_CACHE_SECONDS,
  SecretsManagerSecret,
} from '../../../../shared/adapters/secrets-manager/secrets-manager-secret.js';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:els/link-AbC123';
const VALUE = 'v'.repeat(64);
const sm = mockClient(SecretsManagerClient);

describe('SecretsManagerSecret', () => {
  beforeEach(() => {
    sm.reset();
    // Powertools keeps one provider (and its cache) per process.
    clearCaches();
    sm.on(GetSecretValueCommand).resolves({ SecretString: VALUE });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads nothing until its value is asked for', () => {
    // Act
    new SecretsManagerSecret(ARN, { minLength: 32 });

    // Assess
    expect(sm.calls()).toHaveLength(0);
  });

  it('reads the secret by its ARN once for many reads, concurrent or not', async () => {
    // Prepare
    const secret = new SecretsManagerSecret(ARN, { minLength: 32 });

    // Act
    const concurrent = await Promise.all([secret.value(), secret.value(), secret.value()]);
    const later = [await secret.value(), await secret.value()];

    // Assess
    expect([...concurrent, ...later]).toEqual(Array(5).fill(VALUE));
    expect(sm.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([{ SecretId: ARN }]);
  });

  it(`reads it again once the cache expired (default ${SECRET_CACHE_SECONDS} s), so a rotated value is taken up`, async () => {
    // Prepare
    vi.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z'), toFake: ['Date'] });
    const secret = new SecretsManagerSecret(ARN, { minLength: 32 });
    await secret.value();
    const rotated = 'r'.repeat(64);
    sm.on(GetSecretValueCommand).resolves({ SecretString: rotated });

    // Act
    vi.setSystemTime(new Date('2026-11-24T10:04:59Z'));
    const beforeExpiry = await secret.value();
    vi.setSystemTime(new Date('2026-11-24T10:05:01Z'));
    const afterExpiry = await secret.value();

    // Assess
    expect(beforeExpiry).toBe(VALUE);
    expect(afterExpiry).toBe(rotated);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a value shorter than the minimum, without showing it', async () => {
    // Prepare
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'short-secret' });

    // Act
    const read = new SecretsManagerSecret(ARN, { minLength: 32 }).value();

    // Assess
    await expect(read).rejects.toThrow(`Secret ${ARN} must hold a text value of at least 32 characters`);
    await expect(read).rejects.not.toThrow(/short-secret/);
  });

  it('fails the read when Secrets Manager does, and reads again on the next call', async () => {
    // Prepare
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('AccessDeniedException')).resolves({ SecretString: VALUE });
    const secret = new SecretsManagerSecret(ARN, { minLength: 32 });

    // Act
    const failed = secret.value();

    // Assess
    await expect(failed).rejects.toThrow();
    await expect(secret.value()).resolves.toBe(VALUE);
  });
});

import { clearCaches } from '@aws-lambda-powertools/parameters';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { configuredSecret, requiredSecret } from '../../../shared/composition/configured-secret.js';
import { createContainer } from '../../../shared/composition/container.js';
import { linkSecret } from '../../../shared/composition/providers/link-secret.js';
import { loadConfig } from '../../../shared/config.js';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:els/link-AbC123';
const FROM_ENV = 'e'.repeat(32);
const FROM_AWS = 'a'.repeat(64);
const sm = mockClient(SecretsManagerClient);

describe('configuredSecret', () => {
  beforeEach(() => {
    sm.reset();
    clearCaches();
    sm.on(GetSecretValueCommand).resolves({ SecretString: FROM_AWS });
  });

  it('takes the value from the environment, locally and in tests, even beside an ARN, without calling AWS', async () => {
    // Act
    const secret = configuredSecret(loadConfig({ LINK_SECRET: FROM_ENV, LINK_SECRET_ARN: ARN }), 'LINK_SECRET');

    // Assess
    await expect(secret?.value()).resolves.toBe(FROM_ENV);
    expect(sm.calls()).toHaveLength(0);
  });

  it.each(['LINK_SECRET', 'JWT_HS256_SECRET'] as const)(
    'reads %s from Secrets Manager on AWS, on first use only',
    async (name) => {
      // Prepare
      const secret = configuredSecret(loadConfig({ [`${name}_ARN`]: ARN }), name);
      expect(sm.calls()).toHaveLength(0);

      // Act
      const value = await secret?.value();

      // Assess
      expect(value).toBe(FROM_AWS);
      expect(sm.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([{ SecretId: ARN }]);
    },
  );

  it('is absent when neither the value nor an ARN is configured (JWT: API keys only)', () => {
    expect(configuredSecret(loadConfig({}), 'JWT_HS256_SECRET')).toBeUndefined();
  });

  it('says what to set when a function that needs the secret has neither', () => {
    expect(() => requiredSecret(loadConfig({}), 'LINK_SECRET', 'sign and verify public links')).toThrow(
      'LINK_SECRET (≥ 32 characters) or LINK_SECRET_ARN (a Secrets Manager secret) must be set to sign and verify public links',
    );
  });

  it('gives a function listing the link secret one source per container, read once', async () => {
    // Prepare
    const container = createContainer({ config: loadConfig({ LINK_SECRET_ARN: ARN }) });

    // Act
    const { linkSecret: first } = container.resolve([linkSecret]);
    const { linkSecret: again } = container.resolve([linkSecret]);
    await Promise.all([first.value(), again.value()]);

    // Assess
    expect(again).toBe(first);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });
});

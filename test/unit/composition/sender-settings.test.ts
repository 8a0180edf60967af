import { describe, expect, it } from 'vitest';
import { senderSettingsOf } from '../../../shared/composition/sender-settings.js';
import { loadConfig } from '../../../shared/config.js';
import { linksBaseUrlOf } from '../../../shared/domain/links/links-base-url.js';

describe('the origin of the links in e-mails', () => {
  it('is LINKS_BASE_URL where the deployment gives the links a host of their own', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://app.example.com',
      LINKS_BASE_URL: 'https://links.example.com',
    });
    expect(linksBaseUrlOf(config)).toBe('https://links.example.com');
    expect(senderSettingsOf(config, 'x'.repeat(32)).publicBaseUrl).toBe('https://links.example.com');
  });

  it("is the service's own origin (PUBLIC_BASE_URL) without one", () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://app.example.com' });
    expect(senderSettingsOf(config, 'x'.repeat(32)).publicBaseUrl).toBe('https://app.example.com');
  });

  it('refuses a LINKS_BASE_URL that is not a URL', () => {
    expect(() => loadConfig({ LINKS_BASE_URL: 'links.example.com' })).toThrow();
  });
});

describe("the service's own senders in the executor's settings", () => {
  it('names the onboarding sender (its deprecated name DEFAULT_FROM_ADDRESS as fallback) and reserves it with the system sender', () => {
    // Prepare
    const current = loadConfig({
      SYSTEM_FROM_EMAIL: 'Accounts@Service.example',
      ONBOARDING_FROM_ADDRESS: 'onboarding@sandbox.service.example',
    });
    const legacy = loadConfig({ SYSTEM_FROM_EMAIL: 'accounts@service.example', DEFAULT_FROM_ADDRESS: 'old@x.example' });

    // Act
    const [now, old] = [senderSettingsOf(current, 'x'.repeat(32)), senderSettingsOf(legacy, 'x'.repeat(32))];

    // Assess
    expect(now).toMatchObject({
      onboardingFrom: 'onboarding@sandbox.service.example',
      reserved: ['accounts@service.example', 'onboarding@sandbox.service.example'],
    });
    expect(old).toMatchObject({
      onboardingFrom: 'old@x.example',
      reserved: ['accounts@service.example', 'old@x.example'],
    });
  });
});

/**
 * The service's own senders: the system sender (sign-in links, invitations, notices) and the shared onboarding
 * sender of the sandbox. No client may send From either, nor from their domains.
 */
export interface ServiceSenders {
  /** The sandbox's From: ONBOARDING_FROM_ADDRESS. */
  onboardingFrom: string;
  /** Every address of the service's own (the system sender and the onboarding sender). */
  reserved: readonly string[];
}

/** The configuration that names them. */
export interface ServiceSendersConfig {
  SYSTEM_FROM_EMAIL: string;
  ONBOARDING_FROM_ADDRESS?: string | undefined;
  DEFAULT_FROM_ADDRESS?: string | undefined;
}

/**
 * The shared onboarding sender (the sandbox's From): ONBOARDING_FROM_ADDRESS, else its deprecated name
 * DEFAULT_FROM_ADDRESS, else an address on a reserved domain (RFC 2606) that no client can verify.
 */
export const onboardingFromAddressOf = (config: ServiceSendersConfig): string =>
  config.ONBOARDING_FROM_ADDRESS ?? config.DEFAULT_FROM_ADDRESS ?? 'onboarding@sandbox.example.net';

export const serviceSendersOf = (config: ServiceSendersConfig): ServiceSenders => {
  const onboardingFrom = onboardingFromAddressOf(config);
  return { onboardingFrom, reserved: [config.SYSTEM_FROM_EMAIL.toLowerCase(), onboardingFrom.toLowerCase()] };
};

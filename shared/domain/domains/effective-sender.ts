import { SES_SIMULATOR_DOMAIN } from '../../public/domain-rules.js';
import type { SettingsFields } from '../settings/settings-store.js';
import type { SenderState } from './sender-state.js';

/** A stored setting that breaks the sender rules: it never goes out, and GET /client/settings says why. */
export interface SenderProblem {
  key: 'email_from_address';
  error: string;
}

/**
 * Who a client's e-mails are From, as the sender, the settings view and the template variables all read it:
 * - `verified`: the settings' From, at one of the client's verified domains;
 * - `unset`: no From stored; the default at the first verified domain, or the onboarding sender (sandbox);
 * - `not_verified`: a From stored outside the client's verified domains (or the service's own): never used.
 */
export type FromStatus = 'verified' | 'unset' | 'not_verified';

export interface EffectiveSender {
  fromAddress: string;
  fromName: string;
  fromStatus: FromStatus;
  /** No verified domain: From the onboarding sender, to the client's dashboard users and SES's simulator only. */
  sandbox: boolean;
  /** The client's SES tenant, named on every send once it exists. */
  tenant?: string;
  /** The configuration set associated with the tenant. */
  configurationSet?: string;
  problems: SenderProblem[];
}

export interface EffectiveSenderInput {
  settings: Pick<SettingsFields, 'email_from_address' | 'email_from_name' | 'brand_name' | 'company_name'> | undefined;
  /** The client's account name: the display name of its sandbox mail. */
  clientName: string;
  sender: SenderState | undefined;
  /** The shared onboarding sender (ONBOARDING_FROM_ADDRESS). */
  onboardingFrom: string;
  /** The service's own addresses (the system sender, the onboarding sender): never a client's From. */
  reserved: readonly string[];
}

/** The default local part at a verified domain when the client set no From. */
export const DEFAULT_LOCAL_PART = 'no-reply';

/** The domain of an address, lower-cased (after the last `@`: a quoted local part may hold one). */
export const fromDomainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Why `address` may not be a client's From, or undefined when it may: it is (or is at the domain of) one of the
 * service's own senders, or its domain is not exactly one of the client's verified domains — a subdomain is not
 * covered, though SES would let a verified parent sign for it, because another client may have proven the subdomain.
 */
export function fromAddressProblem(
  address: string,
  verifiedDomains: readonly string[],
  reserved: readonly string[],
): string | undefined {
  const lower = address.toLowerCase();
  const domain = fromDomainOf(lower);
  const own = reserved.some((r) => r.toLowerCase() === lower || fromDomainOf(r) === domain);
  if (own) return `${lower} is the service's own sender; use an address at one of your verified domains`;
  if (verifiedDomains.some((d) => d.toLowerCase() === domain)) return undefined;
  const held = verifiedDomains.length > 0 ? `(${verifiedDomains.join(', ')})` : '(none yet)';
  return (
    `${lower} is not at one of your verified domains ${held}; add ${domain} under Domains ` +
    '(POST /client/domains), publish its records and wait until it is verified, then set this address'
  );
}

/**
 * The From of a client's e-mails: the settings' From when it is at a verified domain; with none set, `no-reply@`
 * the first verified domain; otherwise the onboarding sender under the client's own name, in the sandbox. A stored
 * From that breaks the rules is reported in `problems` and falls back the same way; it never goes out.
 */
export function effectiveSenderOf(input: EffectiveSenderInput): EffectiveSender {
  const { settings, sender } = input;
  const verified = sender?.verified_domains ?? [];
  const stored = settings?.email_from_address;
  const problem = stored === undefined ? undefined : fromAddressProblem(stored, verified, input.reserved);
  const problems: SenderProblem[] = problem ? [{ key: 'email_from_address', error: problem }] : [];
  const route = {
    ...(sender?.tenant ? { tenant: sender.tenant } : {}),
    ...(sender?.configuration_set ? { configurationSet: sender.configuration_set } : {}),
  };
  const fromStatus: FromStatus = stored === undefined ? 'unset' : problem ? 'not_verified' : 'verified';
  const firstDomain = verified[0];
  if (firstDomain === undefined) {
    return {
      fromAddress: input.onboardingFrom,
      // The shared address carries the account's name only: a client-chosen name under the service's address
      // could pass for the service.
      fromName: input.clientName,
      fromStatus,
      sandbox: true,
      ...route,
      problems,
    };
  }
  const fromName = settings?.email_from_name ?? settings?.brand_name ?? settings?.company_name ?? input.clientName;
  const fromAddress = fromStatus === 'verified' ? stored!.toLowerCase() : `${DEFAULT_LOCAL_PART}@${firstDomain}`;
  return { fromAddress, fromName, fromStatus, sandbox: false, ...route, problems };
}

/** Whether a sandboxed client may send to `to`: one of its dashboard users, or SES's mailbox simulator. */
export function isSandboxRecipient(to: string, userEmails: readonly string[]): boolean {
  const lower = to.toLowerCase();
  if (fromDomainOf(lower) === SES_SIMULATOR_DOMAIN) return true;
  return userEmails.some((email) => email.toLowerCase() === lower);
}

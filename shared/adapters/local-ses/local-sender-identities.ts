import { randomInt } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DnsResolver } from '../../domain/domains/dns-resolver.js';
import type {
  ClientSending,
  DkimStatus,
  DomainIdentityStatus,
  MailFromStatus,
  SenderIdentities,
  TenantStatus,
} from '../../domain/domains/sender-identities.js';
import type { Clock } from '../../platform.js';
import { VERIFY_WINDOW_HOURS } from '../../public/domain-rules.js';
import { devKeys } from '../dynamo/keys.js';

export interface LocalSenderIdentitiesOptions {
  /** As on AWS: `<prefix>client-<id>`. */
  tenantPrefix: string;
  /** The clients' shared set: a new identity's default, as on AWS (each client sends through a set of its own). */
  configurationSet: string;
  /** The onboarding sender's domain, associated with every tenant as SES's would be. */
  onboardingIdentity: string | undefined;
  /** The region whose `feedback-smtp.<region>.amazonses.com` a MAIL FROM MX must name. */
  region: string;
}

/** Easy DKIM's tokens: 32 characters of lower-case base32, three per identity. */
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const randomDkimToken = (): string =>
  Array.from({ length: 32 }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');

/** An error carrying SES's name, so code that reads SES errors by name reads these the same way. */
export function sesError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

interface IdentityItem {
  dkim_tokens: string[];
  mail_from_domain?: string;
  tenant?: string;
  created_at: string;
  /** When all three DKIM records were first found: SES keeps a domain verified through a later lapse. */
  dkim_verified_at?: string;
}

/**
 * SES's identities and tenants on the local runtime, where no SES has them (aws-ses-v2-local sends, and knows
 * neither): a registry in the table (`DEVSES#…`, devKeys), so every process of the runtime (the server, the admin CLI)
 * and a restart with DATA_DIR see the same. It answers as SES does: a domain's DKIM is SUCCESS once its three CNAMEs
 * `<token>._domainkey.<domain>` → `<token>.dkim.amazonses.com` resolve through the same DnsResolver the domain checks
 * read (the local DNS), FAILED when they did not within VERIFY_WINDOW_HOURS of the identity's creation, PENDING before;
 * its MAIL FROM is SUCCESS once the MX names SES's feedback endpoint. A tenant sends unless a developer paused it
 * (POST /dev/ses-tenants/{tenant}/status), and a send naming a paused tenant is refused (tenant-pause-mailer.ts).
 *
 * Its reads and writes stand in for SES's API and go through their own DynamoDB client, so they are not counted
 * as the service's table requests.
 */
export class LocalSenderIdentities implements SenderIdentities {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly dns: DnsResolver,
    private readonly clock: Clock,
    private readonly options: LocalSenderIdentitiesOptions,
    private readonly newToken: () => string = randomDkimToken,
  ) {}

  async ensureClientSending(clientId: number): Promise<ClientSending> {
    const tenant = `${this.options.tenantPrefix}client-${clientId}`;
    // As on AWS: the client's own configuration set, named as its tenant.
    const configurationSet = tenant;
    const resources = new Set([`configuration-set/${configurationSet}`]);
    if (this.options.onboardingIdentity) resources.add(`identity/${this.options.onboardingIdentity}`);
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: devKeys.sesTenant(tenant),
        UpdateExpression:
          'SET tenant = :tenant, sending_status = if_not_exists(sending_status, :enabled), ' +
          'created_at = if_not_exists(created_at, :now) ADD resources :resources',
        ExpressionAttributeValues: {
          ':tenant': tenant,
          ':enabled': 'ENABLED',
          ':now': this.clock.now().toISOString(),
          ':resources': resources,
        },
      }),
    );
    return { tenant, configurationSet };
  }

  async createDomainIdentity(
    domain: string,
    options: { tenant: string; mailFromDomain: string },
  ): Promise<{ dkimTokens: string[] }> {
    // An existing identity keeps its tokens (SES's AlreadyExists); its one tenant attribute is its association, so
    // setting it leaves the identity with this tenant alone.
    const out = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: devKeys.sesIdentity(domain),
        UpdateExpression:
          'SET dkim_tokens = if_not_exists(dkim_tokens, :tokens), created_at = if_not_exists(created_at, :now), ' +
          'mail_from_domain = :mailFrom, tenant = :tenant, configuration_set = :set',
        ExpressionAttributeValues: {
          ':tokens': [this.newToken(), this.newToken(), this.newToken()],
          ':now': this.clock.now().toISOString(),
          ':mailFrom': options.mailFromDomain,
          ':tenant': options.tenant,
          ':set': this.options.configurationSet,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { dkimTokens: (out.Attributes as IdentityItem).dkim_tokens };
  }

  async getDomainIdentity(domain: string): Promise<DomainIdentityStatus | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: devKeys.sesIdentity(domain), ConsistentRead: true }),
    );
    const item = out.Item as IdentityItem | undefined;
    if (!item) return undefined;
    const expired = this.clock.now().getTime() - Date.parse(item.created_at) > VERIFY_WINDOW_HOURS * 3_600_000;
    const [targets, mx] = await Promise.all([
      Promise.all(item.dkim_tokens.map((token) => this.dns.cname(`${token}._domainkey.${domain}`))),
      item.mail_from_domain ? this.dns.mx(item.mail_from_domain) : Promise.resolve([]),
    ]);
    const dkimFound = item.dkim_tokens.every((token, i) => targets[i]?.includes(`${token}.dkim.amazonses.com`));
    let dkimStatus: DkimStatus;
    if (dkimFound) dkimStatus = 'SUCCESS';
    // SES keeps a verified domain sending while it looks again for records that went missing.
    else if (item.dkim_verified_at) dkimStatus = 'TEMPORARY_FAILURE';
    else dkimStatus = expired ? 'FAILED' : 'PENDING';
    if (dkimFound && !item.dkim_verified_at) await this.markDkimVerified(domain);
    const feedback = `feedback-smtp.${this.options.region}.amazonses.com`;
    let mailFromStatus: MailFromStatus | undefined;
    if (item.mail_from_domain) {
      if (mx.some((record) => record.exchange === feedback)) mailFromStatus = 'SUCCESS';
      else mailFromStatus = expired ? 'FAILED' : 'PENDING';
    }
    return {
      verifiedForSending: dkimStatus === 'SUCCESS' || dkimStatus === 'TEMPORARY_FAILURE',
      dkimStatus,
      dkimTokens: item.dkim_tokens,
      mailFromDomain: item.mail_from_domain,
      mailFromStatus,
    };
  }

  async deleteDomainIdentity(domain: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: devKeys.sesIdentity(domain) }));
  }

  async tenantStatus(tenant: string): Promise<TenantStatus> {
    const found = await this.findTenantStatus(tenant);
    if (!found) throw sesError('NotFoundException', `Tenant ${tenant} does not exist`);
    return found;
  }

  /** The tenant's sending status; undefined when the registry holds no such tenant. */
  async findTenantStatus(tenant: string): Promise<TenantStatus | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: devKeys.sesTenant(tenant), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const status = out.Item['sending_status'] as TenantStatus['status'];
    const cause = out.Item['cause'] as string | undefined;
    return status === 'DISABLED' && cause ? { status, cause } : { status };
  }

  /**
   * What an operator (or SES's reputation policy) does to a tenant on AWS: pause or resume its sending. False when
   * the tenant does not exist.
   */
  async setTenantStatus(tenant: string, next: { status: 'ENABLED' | 'DISABLED'; cause?: string }): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: devKeys.sesTenant(tenant),
          UpdateExpression: next.cause
            ? 'SET sending_status = :status, cause = :cause'
            : 'SET sending_status = :status REMOVE cause',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':status': next.status, ...(next.cause ? { ':cause': next.cause } : {}) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  private async markDkimVerified(domain: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: devKeys.sesIdentity(domain),
          UpdateExpression: 'SET dkim_verified_at = :now',
          // Not on an identity deleted meanwhile, and only the first time.
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(dkim_verified_at)',
          ExpressionAttributeValues: { ':now': this.clock.now().toISOString() },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}

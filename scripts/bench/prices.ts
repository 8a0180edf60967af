/**
 * The AWS prices the cost bench (scripts/bench/cost.ts) multiplies its measured quantities by: one region (us-east-1,
 * where docs/deploy.md deploys by default), on-demand, past every free tier (a free tier is an account's, not an
 * e-mail's). Each price names the page it is published on and the date it took effect or was last read there; the
 * bench prints them beside the table so a reader can check them. Change a price here, and only here.
 */

export interface Price {
  /** What one unit is, in words (`per million write request units`). */
  unit: string;
  /** US dollars per `per` units. */
  usd: number;
  /** How many units the price is for (1,000,000 for a per-million price). */
  per: number;
  /** The page publishing it. */
  source: string;
  /** The date the price is known from (ISO): when it took effect, or when the page was read. */
  asOf: string;
}

export const PRICE_REGION = 'us-east-1';

/** Dollars for `quantity` units at `price`. */
export const costOf = (quantity: number, price: Price): number => (quantity * price.usd) / price.per;

export const PRICES = {
  /** On-demand write request unit: 1 KB of an item written, 2 in a transaction (halved from $1.25 on 2024-11-01). */
  dynamoWrite: {
    unit: 'per million write request units (on-demand)',
    usd: 0.625,
    per: 1_000_000,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    asOf: '2024-11-01',
  },
  /** On-demand read request unit: 4 KB strongly consistent, 8 KB eventually consistent (halved from $0.25 on 2024-11-01). */
  dynamoRead: {
    unit: 'per million read request units (on-demand)',
    usd: 0.125,
    per: 1_000_000,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    asOf: '2024-11-01',
  },
  /**
   * DynamoDB Streams read request units, $0.02 per 100,000 — but "GetRecords API calls invoked by AWS Lambda as part of
   * DynamoDB triggers are free", and Lambda's event source mappings are this service's only stream readers.
   */
  streamRead: {
    unit: 'per 100,000 stream read request units (free when read by a Lambda trigger)',
    usd: 0.02,
    per: 100_000,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    asOf: '2024-11-01',
  },
  /** Lambda requests (every architecture). */
  lambdaRequest: {
    unit: 'per million Lambda requests',
    usd: 0.2,
    per: 1_000_000,
    source: 'https://aws.amazon.com/lambda/pricing/',
    asOf: '2025-06-01',
  },
  /** Lambda duration on Arm (infra/node-function.ts builds every function for arm64), first 7.5 billion GB-s a month. */
  lambdaArmGbSecond: {
    unit: 'per GB-second of Lambda duration (Arm, first 7.5 billion GB-s a month)',
    usd: 0.0000133334,
    per: 1,
    source: 'https://aws.amazon.com/lambda/pricing/',
    asOf: '2025-06-01',
  },
  /** SQS standard queue requests; a request is up to 64 KB of payload, a batch of up to 10 messages one request. */
  sqsRequest: {
    unit: 'per million SQS requests (standard queue, 64 KB chunks)',
    usd: 0.4,
    per: 1_000_000,
    source: 'https://aws.amazon.com/sqs/pricing/',
    asOf: '2025-06-01',
  },
  /** EventBridge Scheduler: each schedule that fires (its target invoked); creating or deleting one is not billed. */
  schedulerInvocation: {
    unit: 'per million EventBridge Scheduler invocations',
    usd: 1,
    per: 1_000_000,
    source: 'https://aws.amazon.com/eventbridge/pricing/',
    asOf: '2025-06-01',
  },
  /** API Gateway HTTP API (infra/http-api.ts), first 300 million requests a month, metered in 512 KB increments. */
  httpApiRequest: {
    unit: 'per million HTTP API requests (first 300 million a month)',
    usd: 1,
    per: 1_000_000,
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    asOf: '2025-06-01',
  },
  /** SNS publishes: SES publishes each status event to the status topic (infra/mail-events.ts); SNS → SQS delivery is free. */
  snsPublish: {
    unit: 'per million SNS publishes (64 KB chunks)',
    usd: 0.5,
    per: 1_000_000,
    source: 'https://aws.amazon.com/sns/pricing/',
    asOf: '2025-06-01',
  },
  /** SES outbound e-mail sent from Lambda: the price this service's overhead is compared with. */
  sesEmail: {
    unit: 'per 1,000 e-mails sent (SES outbound)',
    usd: 0.1,
    per: 1_000,
    source: 'https://aws.amazon.com/ses/pricing/',
    asOf: '2025-06-01',
  },
  /** CloudWatch Logs ingestion (standard class). */
  logsIngestionGb: {
    unit: 'per GB of CloudWatch Logs ingested (standard)',
    usd: 0.5,
    per: 1,
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    asOf: '2025-06-01',
  },
} as const satisfies Record<string, Price>;

export type PriceName = keyof typeof PRICES;

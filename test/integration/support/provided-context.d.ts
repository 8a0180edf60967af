import 'vitest';

/** Values test/integration/global-setup.ts provides to every integration test (`inject('baseUrl')`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. `http://127.0.0.1:41234/api/v1` */
    baseUrl: string;
    /** DynamoDB Local of the shared runtime, for fixtures written straight to the store. */
    dynamoEndpoint: string;
    tableName: string;
    /** aws-ses-v2-local: `GET ${sesUrl}/store` lists the mails sent. */
    sesUrl: string;
    /** HS256 secret, issuer and audience the runtime verifies JWT bearer tokens with. */
    jwt: { secret: string; issuer: string; audience: string };
    /** Milliseconds one minute of a journey's wait or timeout lasts in the runtime (LOCAL_JOURNEY_MINUTE_MS). */
    journeyMinuteMs: number;
  }
}

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createContainer, setContainer, type Container } from '../../shared/composition/container.js';
import type { Ports } from '../../shared/composition/port-registry.js';
import { loadConfig } from '../../shared/config.js';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { RequestCounter } from '../../shared/adapters/dynamo/request-counter.js';

/**
 * The runtime's dependencies rebuilt on a DynamoDB client that can hold every request for a while before sending
 * it: DynamoDB Local answers from localhost in well under a millisecond, DynamoDB from Lambda in a few. Setting a
 * latency models that round trip; 0 leaves the requests as they are. `overrides` are the ports the runtime swapped
 * in (its in-process queue, scheduler and mailer), kept so the engine still runs locally.
 */
export function installLatency(overrides: Partial<Ports>): {
  set(ms: number): void;
  counter: RequestCounter;
  /** The container's DynamoDB client (the counters' bench attaches its capacity meter to it). */
  db: DynamoDBDocumentClient;
  /**
   * Puts a container on the same client, counter and engine ports in place, with `stores(container)` in place of the
   * providers' (the counters' bench: stores that do not count); returns the function that puts the first one back.
   */
  withStores(stores: (container: Container) => Partial<Ports>): () => void;
} {
  let latencyMs = 0;
  const config = loadConfig();
  const counter = new RequestCounter();
  const db: DynamoDBDocumentClient = createDocumentClient({
    region: config.AWS_REGION,
    endpoint: config.AWS_ENDPOINT_URL_DYNAMODB,
    counter,
  });
  db.middlewareStack.add(
    (next) => async (args) => {
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return next(args);
    },
    { step: 'finalizeRequest', name: 'benchLatency', priority: 'low' },
  );
  const base = createContainer({ config, db, requestCounter: counter, overrides });
  setContainer(base);
  return {
    set: (ms) => (latencyMs = ms),
    counter,
    db,
    withStores: (stores) => {
      const swapped: Partial<Ports> = { ...overrides };
      const container = createContainer({ config, db, requestCounter: counter, overrides: swapped });
      // The stores may need the container they serve (its configuration cache): built once it exists.
      Object.assign(swapped, stores(container));
      setContainer(container);
      return () => setContainer(base);
    },
  };
}

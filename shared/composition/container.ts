import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DocumentClientOptions } from '../adapters/dynamo/document-client.js';
import { RequestCounter } from '../adapters/dynamo/request-counter.js';
import { loadConfig, type Config } from '../config.js';
import type { Components, Ports } from './port-registry.js';

/**
 * One function's dependencies, built lazily: a component is built the first time a function asks for it and then
 * kept for the container's life (a warm Lambda). The local runtime puts one container behind every route, so its
 * routes share stores and the auth cache as the functions of one warm container would.
 */
export interface Provider<K extends keyof Components = keyof Components> {
  readonly port: K;
  build(container: Container): Components[K];
}

/** Declares how a component is built; one provider per module, so a bundle holds only the providers it imports. */
export const provide = <K extends keyof Components>(
  port: K,
  build: (container: Container) => Components[K],
): Provider<K> => ({
  port,
  build,
});

/** What every function gets besides the components it lists. */
export interface BaseDeps {
  config: Config;
  /** DynamoDB requests sent by this container (benchmarks, request budgets). */
  requestCounter: RequestCounter;
}

/** The `deps` of a function that listed `P`: exactly those components, by port name, plus the base. */
export type DepsOf<P extends readonly Provider<any>[]> = BaseDeps & {
  [E in P[number] as E['port']]: Components[E['port']];
};

export interface ContainerOptions {
  /** Default: `loadConfig()` on first use. */
  config?: Config;
  /** Adapters used instead of the providers' (local runtime: queue, scheduler, mailer; tests: memory stores). */
  overrides?: Partial<Ports>;
  /** A ready DynamoDB client (benchmarks add latency); default: one built from config on first use. */
  db?: DynamoDBDocumentClient;
  requestCounter?: RequestCounter;
}

export interface TableAccess {
  db: DynamoDBDocumentClient;
  tableName: string;
}

export class Container {
  readonly requestCounter: RequestCounter;
  private loadedConfig?: Config;
  private table?: TableAccess;
  private readonly built = new Map<keyof Components, unknown>();

  constructor(private readonly options: ContainerOptions = {}) {
    this.requestCounter = options.requestCounter ?? new RequestCounter();
  }

  get config(): Config {
    this.loadedConfig ??= this.options.config ?? loadConfig();
    return this.loadedConfig;
  }

  /**
   * The DynamoDB document client (counted by `requestCounter`) and table every store adapter shares. The store
   * providers pass the factory (shared/composition/providers/table.ts), so a function that lists no store never
   * bundles the DynamoDB client.
   */
  dynamo(createClient: (options: DocumentClientOptions) => DynamoDBDocumentClient): TableAccess {
    this.table ??= {
      db:
        this.options.db ??
        createClient({
          region: this.config.AWS_REGION,
          endpoint: this.config.AWS_ENDPOINT_URL_DYNAMODB,
          counter: this.requestCounter,
        }),
      tableName: this.config.TABLE_NAME,
    };
    return this.table;
  }

  /** The component `provider` builds — or the override for its port — once per container. */
  use<K extends keyof Components>(provider: Provider<K>): Components[K] {
    const override = this.options.overrides?.[provider.port as keyof Ports];
    if (override) return override as Components[K];
    if (!this.built.has(provider.port)) this.built.set(provider.port, provider.build(this));
    return this.built.get(provider.port) as Components[K];
  }

  /** `deps` for a function listing `providers`. */
  resolve<const P extends readonly Provider<any>[]>(providers: P): DepsOf<P> {
    const deps: Record<string, unknown> = { config: this.config, requestCounter: this.requestCounter };
    for (const provider of providers) deps[provider.port] = this.use(provider);
    return deps as DepsOf<P>;
  }
}

export const createContainer = (options: ContainerOptions = {}): Container => new Container(options);

let current: Container | undefined;

/** The process's container: one per Lambda container; the local runtime shares it across every function. */
export function getContainer(): Container {
  current ??= createContainer();
  return current;
}

/** Tests and the local runtime replace the process's container (e.g. after pointing the environment elsewhere). */
export function setContainer(next: Container | undefined): void {
  current = next;
}

import { clientPk } from '../../adapters/dynamo/keys.js';
import { ConfigCache } from '../../adapters/dynamo/config-cache.js';
import type { Container } from '../container.js';

const caches = new WeakMap<Container, ConfigCache>();

/**
 * The container's one cache of client configuration (CONFIG_CACHE_TTL_SECONDS): the engine's reading stores fill it,
 * the writing stores of the same container forget a client's entries (forgetsConfigAfter). One per container, so the
 * local runtime — one container behind every function — sees a settings update at once.
 */
export function configCacheOf(c: Container): ConfigCache {
  let cache = caches.get(c);
  if (!cache) {
    cache = new ConfigCache(c.config.CONFIG_CACHE_TTL_SECONDS * 1000);
    caches.set(c, cache);
  }
  return cache;
}

type ClientOf<T> = {
  [K in keyof T]?: T[K] extends (...args: infer A) => Promise<unknown> ? (...args: A) => number : never;
};

/**
 * A store whose listed writes forget the written client's cached configuration once they end (succeeded or not: a
 * failed conditional write may still mean the item changed under another writer). `clientOf` names, per write, the
 * client it touches.
 */
export function forgetsConfigAfter<T extends object>(store: T, cache: ConfigCache, clientOf: ClientOf<T>): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const client = clientOf[property as keyof T] as ((...args: unknown[]) => number) | undefined;
      if (typeof value !== 'function' || !client) return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } finally {
          cache.forget(clientPk(client(...args)));
        }
      };
    },
  });
}

/**
 * The OpenAPI document of the deployed API: every entry of the route table but the local-only ones, each described
 * by the contract its handler module carries (`handler.contract`, attached by jsonApi / publicApi / publicPage).
 * `npm run openapi` writes it to docs/openapi.json; GET /api/v1/openapi.json serves that file.
 */
import { buildDocument, type OpenApiDocument } from '../shared/openapi/build-document.js';
import type { HandlerContract } from '../shared/http/contract.js';
import { fullPath, routes as routeTable, type RouteDefinition } from './routes.js';

/** Builds the document from the route table and the handler modules under functions/http/. */
export async function generateOpenApiDocument(
  routes: readonly RouteDefinition[] = routeTable,
): Promise<OpenApiDocument> {
  const documented = await Promise.all(
    routes
      .filter((route) => !route.localOnly)
      .map(async (route) => ({
        method: route.method,
        path: fullPath(route),
        operationId: operationIdOf(route.handler),
        contract: await contractOf(route),
      })),
  );
  return buildDocument(documented);
}

/** `contacts-create` → `contactsCreate`: the handler's name, as client generators name methods. */
export const operationIdOf = (handler: string): string =>
  handler.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

async function contractOf(route: RouteDefinition): Promise<HandlerContract> {
  const module = (await import(new URL(`./http/${route.handler}.ts`, import.meta.url).href)) as {
    handler?: { contract?: HandlerContract };
  };
  const contract = module.handler?.contract;
  if (!contract) {
    throw new Error(
      `functions/http/${route.handler}.ts has no contract: wrap its handler with jsonApi, publicApi or publicPage`,
    );
  }
  return contract;
}

import { Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { API_BASE_PATH, routes } from '../functions/routes.js';
import { fallbackRoutes } from '../shared/http/route-overlaps.js';
import { createNodeFunction, entryOf } from './node-function.js';
import { routesOnAws } from './route-function.js';

export interface FallbackFunctionProps {
  api: HttpApi;
  deletionProtection: boolean;
}

/**
 * The API's `$default` route: whatever no route of functions/routes.ts takes reaches functions/fallback/unmatched.ts,
 * which answers 405 + `Allow` for a known path and the 404 envelope otherwise. No table, queue or secret: its role may
 * write its own logs and nothing else. It also takes the methods a literal path lacks where a `{param}` path beside it
 * has them (`GET /client/contacts/bulk`): API Gateway would send those to the `{param}` route (shared/http/route-overlaps.ts).
 */
export class FallbackFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: FallbackFunctionProps) {
    super(scope, id);
    this.function = createNodeFunction(this, {
      entry: entryOf('fallback', 'unmatched'),
      description: '$default: 405 with Allow for a known path with another method, else the 404 envelope',
      timeoutSeconds: 3,
      memoryMb: 256,
      environment: { POWERTOOLS_SERVICE_NAME: 'email-lifecycle' },
      deletionProtection: props.deletionProtection,
    });
    const integration = new HttpLambdaIntegration('Integration', this.function);
    const route = new HttpRoute(this, 'Route', { httpApi: props.api, routeKey: HttpRouteKey.DEFAULT, integration });
    const reason =
      'The fallback only answers 404/405 error envelopes for requests no route takes; it reads and changes nothing.';
    Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason });
    for (const gap of fallbackRoutes(routesOnAws(routes))) {
      const path = gap.root ? gap.path : `${API_BASE_PATH}${gap.path}`;
      const id = `Gap${gap.method}${path.replace(/[^A-Za-z0-9]/g, '')}`;
      const gapRoute = new HttpRoute(this, id, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(path, HttpMethod[gap.method as keyof typeof HttpMethod]),
        integration,
      });
      Validations.of(gapRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason });
    }
  }
}

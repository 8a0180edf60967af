import { Validations } from 'aws-cdk-lib';
import { HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { createNodeFunction, entryOf } from './node-function.js';

export interface FallbackFunctionProps {
  api: HttpApi;
  deletionProtection: boolean;
}

/**
 * The API's `$default` route: whatever no route of functions/routes.ts takes reaches functions/fallback/unmatched.ts,
 * which answers 405 + `Allow` for a known path and the 404 envelope otherwise. No table, queue or secret: its role may
 * write its own logs and nothing else.
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
    const route = new HttpRoute(this, 'Route', {
      httpApi: props.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('Integration', this.function),
    });
    Validations.of(route).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'The $default route only answers 404/405 error envelopes for requests no route takes; it reads and changes nothing.',
    });
  }
}

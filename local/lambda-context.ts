import type { Context } from 'aws-lambda';

/** A Lambda-shaped invocation context for handlers run in-process (local server, invoke script). */
export interface LambdaContextOptions {
  functionName: string;
  awsRequestId: string;
  /** The function's configured timeout; drives getRemainingTimeInMillis. */
  timeoutSeconds?: number;
  memoryMb?: number;
  region?: string;
}

export function createLambdaContext(options: LambdaContextOptions): Context {
  const timeoutMs = (options.timeoutSeconds ?? 10) * 1000;
  const deadline = Date.now() + timeoutMs;
  const region = options.region ?? process.env['AWS_REGION'] ?? 'us-east-1';
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  const unsupported = (name: string) => () => {
    throw new Error(`context.${name}() is not supported locally; return a value or a promise instead`);
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${options.functionName}`,
    memoryLimitInMB: String(options.memoryMb ?? 512),
    awsRequestId: options.awsRequestId,
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `${today}/[$LATEST]local`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
}

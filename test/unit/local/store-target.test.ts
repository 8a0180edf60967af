import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRuntime, writeRuntimeDescriptor } from '../../../local/runtime-descriptor.js';
import { localRuntime, localStoreTarget, NoRuntimeOnPortError } from '../../../local/store-target.js';

const RUNTIME = {
  baseUrl: 'http://127.0.0.1:3100/api/v1',
  port: 3100,
  dynamoEndpoint: 'http://127.0.0.1:8100',
  sesUrl: 'http://127.0.0.1:8105',
  tableName: 'from-runtime',
};

let dir: string;
let forget: () => void;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-target-'));
  forget = writeRuntimeDescriptor(RUNTIME, dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('localStoreTarget', () => {
  it('finds the npm start of the API port given by flag, with its own DynamoDB, SES and table', () => {
    expect(localStoreTarget({}, 3100, dir)).toMatchObject({
      dynamoEndpoint: 'http://127.0.0.1:8100',
      sesUrl: 'http://127.0.0.1:8105',
      tableName: 'from-runtime',
      origin: 'http://127.0.0.1:3100',
      explicit: true,
    });
  });

  it('finds it by PORT when no flag is given', () => {
    expect(localStoreTarget({ PORT: '3100' }, undefined, dir).dynamoEndpoint).toBe('http://127.0.0.1:8100');
  });

  it.each([
    [
      'AWS_ENDPOINT_URL_DYNAMODB',
      { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9999', PORT: '3100' },
      'http://127.0.0.1:9999',
    ],
    ['DYNAMODB_PORT', { DYNAMODB_PORT: '8200', PORT: '3100' }, 'http://127.0.0.1:8200'],
  ])('prefers %s, which names the store itself, over the API port', (_name, env, endpoint) => {
    expect(localStoreTarget(env, undefined, dir)).toMatchObject({ dynamoEndpoint: endpoint, explicit: true });
  });

  it('refuses an API port no live npm start serves instead of picking another store', () => {
    expect(() => localStoreTarget({}, 3200, dir)).toThrow(NoRuntimeOnPortError);
    expect(() => localStoreTarget({ PORT: '3200' }, undefined, dir)).toThrow(
      'no `npm start` is running on API port 3200',
    );
  });

  it('falls back to 127.0.0.1:8000, as a guess it does not insist on, when nothing is named', () => {
    expect(localStoreTarget({}, undefined, dir)).toMatchObject({
      dynamoEndpoint: 'http://127.0.0.1:8000',
      explicit: false,
    });
  });
});

describe('localRuntime', () => {
  it('finds the npm start of the API port given by flag, else PORT', () => {
    expect(localRuntime({ PORT: '3200' }, 3100, dir)).toMatchObject({
      pid: process.pid,
      baseUrl: 'http://127.0.0.1:3100/api/v1',
    });
    expect(localRuntime({ PORT: '3100' }, undefined, dir).baseUrl).toBe('http://127.0.0.1:3100/api/v1');
  });

  it('does not look at the variables that name a store: only a running npm start holds what it is asked for', () => {
    expect(() => localRuntime({ DYNAMODB_PORT: '8100', PORT: '3200' }, undefined, dir)).toThrow(NoRuntimeOnPortError);
  });

  it('refuses when no live npm start serves the port, 3000 when none is named', () => {
    expect(() => localRuntime({}, undefined, dir)).toThrow(
      /no `npm start` is running on API port 3000 .*start one with PORT=3000 npm start, or pass --port/,
    );
  });
});

describe('runtime descriptor', () => {
  it('is gone once the runtime that wrote it forgets it', () => {
    expect(findRuntime(3100, dir)).toMatchObject({ pid: process.pid, tableName: 'from-runtime' });
    forget();
    expect(findRuntime(3100, dir)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { allowedOrigin, corsPolicy, parseCorsOrigins } from '../../../shared/http/cors.js';

describe('parseCorsOrigins', () => {
  it.each([
    [undefined, []],
    ['', []],
    [' , ', []],
    ['https://app.example.com', ['https://app.example.com']],
    [
      'https://app.example.com, http://localhost:5173,https://app.example.com',
      ['https://app.example.com', 'http://localhost:5173'],
    ],
    ['*', ['*']],
  ])('reads %j as %j', (value, origins) => {
    expect(parseCorsOrigins(value)).toEqual(origins);
  });

  it.each([
    [
      'https://app.example.com/',
      'CORS_ORIGINS: "https://app.example.com/" must be written as the origin "https://app.example.com" (no path, no trailing slash)',
    ],
    [
      'https://app.example.com/path',
      'CORS_ORIGINS: "https://app.example.com/path" must be written as the origin "https://app.example.com" (no path, no trailing slash)',
    ],
    ['app.example.com', 'CORS_ORIGINS: "app.example.com" is not an origin such as https://app.example.com'],
    [
      'ftp://files.example.com',
      'CORS_ORIGINS: "ftp://files.example.com" is not an origin such as https://app.example.com',
    ],
    ['*, https://app.example.com', 'CORS_ORIGINS: "*" allows every origin and cannot be combined with others'],
  ])('refuses %j with a precise message', (value, message) => {
    expect(() => parseCorsOrigins(value)).toThrow(message);
  });

  it('names the setting it read in its messages', () => {
    expect(() => parseCorsOrigins('nope', 'Context "corsOrigins"')).toThrow(
      'Context "corsOrigins": "nope" is not an origin',
    );
  });
});

describe('corsPolicy and allowedOrigin', () => {
  it('is off without origins', () => {
    expect(corsPolicy([])).toBeUndefined();
  });

  it('allows exactly the listed origins, or any with *', () => {
    const policy = corsPolicy(['https://app.example.com'])!;
    expect(policy).toMatchObject({
      allowHeaders: ['authorization', 'content-type'],
      allowMethods: expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
    });
    expect(allowedOrigin(policy, 'https://app.example.com')).toBe('https://app.example.com');
    expect(allowedOrigin(policy, 'https://evil.example.com')).toBeUndefined();
    expect(allowedOrigin(policy, undefined)).toBeUndefined();
    expect(allowedOrigin(corsPolicy(['*'])!, 'https://any.example.org')).toBe('*');
  });
});

import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHosts, guardServerHosts, isOwnHost } from '../../../local/host-check.js';

describe('allowedHosts / isOwnHost', () => {
  const allowed = allowedHosts({
    port: 3000,
    bindHost: '127.0.0.1',
    origins: ['https://links.example.org', 'http://dash.example.org:8080/app', undefined],
  });

  it.each([
    ['127.0.0.1:3000'],
    ['localhost:3000'],
    ['LOCALHOST:3000'],
    ['[::1]:3000'],
    ['links.example.org'],
    ['links.example.org:443'],
    ['dash.example.org:8080'],
  ])('answers Host %s', (host) => {
    expect(isOwnHost(host, allowed)).toBe(true);
  });

  it.each([
    ['rebind.attacker.example:3000', 'a rebinding name'],
    ['rebind.attacker.example', 'a rebinding name, no port'],
    ['127.0.0.1', 'loopback without the port'],
    ['localhost:3001', 'another port'],
    ['127.0.0.2:3000', 'another loopback address'],
    ['localhost.:3000', 'a trailing dot'],
    ['dash.example.org', 'a configured name on another port'],
    ['', 'empty'],
    [undefined, 'absent'],
  ] as [string | undefined, string][])('refuses Host %s (%s)', (host) => {
    expect(isOwnHost(host, allowed)).toBe(false);
  });

  it('adds the bound address, but not a wildcard', () => {
    expect(isOwnHost('192.168.1.5:3000', allowedHosts({ port: 3000, bindHost: '192.168.1.5' }))).toBe(true);
    expect(isOwnHost('0.0.0.0:3000', allowedHosts({ port: 3000, bindHost: '0.0.0.0' }))).toBe(false);
    expect(isOwnHost('[fd00::5]:3000', allowedHosts({ port: 3000, bindHost: 'fd00::5' }))).toBe(true);
  });

  it('takes the bare name on port 80', () => {
    expect(isOwnHost('localhost', allowedHosts({ port: 80 }))).toBe(true);
  });
});

describe('guardServerHosts', () => {
  let server: Server;
  let port: number;
  let reached = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      reached += 1;
      res.end('mail viewer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    guardServerHosts(server, allowedHosts({ port, bindHost: '127.0.0.1' }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ hostname: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it("refuses another host with 421 before the server's own listener runs", async () => {
    const res = await get(`rebind.attacker.example:${port}`);
    expect(res.status).toBe(421);
    expect(res.body).not.toContain('mail viewer');
    expect(reached).toBe(0);
  });

  it('hands its own host to the listener', async () => {
    const res = await get(`localhost:${port}`);
    expect(res).toEqual({ status: 200, body: 'mail viewer' });
    expect(reached).toBe(1);
  });
});

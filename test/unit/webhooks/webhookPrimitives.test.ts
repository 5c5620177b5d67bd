import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { retryDelayMs } from '../../../src/indexer/webhooks/dispatcher';
import { isPublicAddress, resolvedUrlProblem, urlProblem } from '../../../src/lib/publicAddress';
import { SecretBox, SecretKeyMismatchError } from '../../../src/lib/secretBox';
import { generateSecret, secretKeyBytes, signature } from '../../../src/lib/standardWebhooks';

describe('webhook primitives', () => {
  it('signs as the standardwebhooks package verifies', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ id: 'msg_1', type: 'match.added', record: { title: 'Été' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(secret, 'msg_1', timestamp, body),
    };
    expect(() => new Webhook(secret).verify(body, headers)).to.not.throw();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).to.throw();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).to.throw();
  });

  it('accepts whsec_ secrets of 24 to 64 bytes only', () => {
    expect(secretKeyBytes(generateSecret())).to.have.length(32);
    expect(secretKeyBytes(`whsec_${Buffer.alloc(23).toString('base64')}`)).to.equal(null);
    expect(secretKeyBytes(`whsec_${Buffer.alloc(65).toString('base64')}`)).to.equal(null);
    expect(secretKeyBytes('sk_abc')).to.equal(null);
  });

  it('seals secrets with AES-256-GCM: a fresh IV each time, tampering and another key refused', () => {
    const box = new SecretBox(Buffer.alloc(32, 1));
    const a = box.seal('whsec_x');
    const b = box.seal('whsec_x');
    expect(a.iv).to.not.equal(b.iv);
    expect(box.open(a)).to.equal('whsec_x');
    expect(() => box.open({ ...a, data: Buffer.from('whsec_y').toString('base64') })).to.throw();
    expect(() => new SecretBox(Buffer.alloc(32, 2)).open(a)).to.throw(SecretKeyMismatchError);
  });

  it('tells public addresses from loopback, private, link-local and their IPv6 and mapped forms', () => {
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:7f00:1',
      '::127.0.0.1',
      '64:ff9b::a00:1',
      'not an address',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).to.equal(false);
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(address), address).to.equal(true);
    expect(urlProblem('http://[::ffff:127.0.0.1]:80/', false)).to.match(/private/);
    expect(urlProblem('http://[::ffff:127.0.0.1]:80/', true)).to.equal(null);
    expect(urlProblem('gopher://example.org/', true)).to.match(/http or https/);
    // The root's trailing dot names the same host.
    expect(urlProblem('http://localhost.:9999/', false)).to.match(/loopback/);
    expect(urlProblem('http://hooks.localhost./', false)).to.match(/loopback/);
    expect(urlProblem('http://localhost..:9999/', false)).to.match(/loopback/);
    expect(urlProblem('http://127.0.0.1.:9999/', false)).to.match(/private/);
    expect(urlProblem('http://example.org./', false)).to.equal(null);
  });

  it('refuses a host name that resolves only to addresses a webhook may not reach, and lets through one that does not resolve', async () => {
    const hosts: Record<string, string[]> = {
      'intranet.example': ['10.1.2.3', 'fd00::1'],
      'mixed.example': ['10.1.2.3', '93.184.215.14'],
      'public.example': ['93.184.215.14'],
    };
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      if (host === 'slow.example') return new Promise<{ address: string }[]>(() => undefined);
      const found = hosts[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address }));
    };
    const problem = (url: string, allowPrivate = false) => resolvedUrlProblem(url, allowPrivate, resolve, 50);
    expect(await problem('https://intranet.example/hook')).to.match(/resolves only to private/);
    expect(await problem('https://intranet.example./hook')).to.match(/resolves only to private/);
    expect(await problem('https://intranet.example/hook', true)).to.equal(null);
    expect(await problem('https://mixed.example/hook')).to.equal(null);
    expect(await problem('https://public.example/hook')).to.equal(null);
    expect(await problem('https://unknown.example/hook')).to.equal(null);
    expect(await problem('https://slow.example/hook')).to.equal(null);
    expect(await problem('https://93.184.215.14/hook')).to.equal(null);
    expect(asked).to.deep.equal([
      'intranet.example',
      'intranet.example',
      'mixed.example',
      'public.example',
      'unknown.example',
      'slow.example',
    ]);
  });

  it('waits longer after each failure, jittered within the upper half, capped', () => {
    expect(retryDelayMs(1, 1000, 60_000, () => 0)).to.equal(500);
    expect(retryDelayMs(1, 1000, 60_000, () => 1)).to.equal(1000);
    expect(retryDelayMs(4, 1000, 60_000, () => 1)).to.equal(8000);
    expect(retryDelayMs(30, 1000, 60_000, () => 1)).to.equal(60_000);
  });
});

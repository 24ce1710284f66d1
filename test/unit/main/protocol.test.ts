/**
 * The `station://app` protocol handler's answers (electron/main/protocol.ts):
 * files under the renderer folder with the CSP; 400 for a malformed escape;
 * 404 for another host, a path leaving the folder, a missing or unreadable
 * file. Real files in a temp folder; the file fetch is Node's fs (Electron's
 * net.fetch rejects for a missing file, which the fake reproduces).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRequestTarget, serveAppRequest, type FileFetch } from '../../../electron/main/protocol';

let dir: string;
const fetched: string[] = [];
/** Like net.fetch on file://: the bytes, or a rejection when the file cannot be read. */
const fetchFile: FileFetch = async (url) => {
  fetched.push(url);
  const data = await fs.promises.readFile(fileURLToPath(url));
  return new Response(data, { status: 200, headers: { 'content-type': url.endsWith('.html') ? 'text/html' : 'text/javascript' } });
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-protocol-'));
  fs.mkdirSync(path.join(dir, 'renderer', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>bench</title>');
  fs.writeFileSync(path.join(dir, 'renderer', 'assets', 'app 1.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const serve = (url: string) => serveAppRequest(new Request(url), path.join(dir, 'renderer'), fetchFile);

describe('station:// protocol', () => {
  it('serves index.html for / and files by their (escaped) names, with the CSP and nosniff', async () => {
    const root = await serve('station://app/');
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<title>bench</title>');
    expect(root.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(root.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await serve('station://app/assets/app%201.js');
    expect([js.status, await js.text()]).toEqual([200, 'console.log(1)']);
  });

  it('answers 400 for a malformed percent-escape instead of throwing', async () => {
    for (const bad of ['station://app/%E0%A4%A', 'station://app/%', 'station://app/assets/%ZZ.js', 'station://app/a%00b']) {
      const r = await serve(bad);
      expect([bad, r.status]).toEqual([bad, 400]);
    }
  });

  it('answers 404 for a missing file instead of rejecting', async () => {
    const r = await serve('station://app/assets/missing.js');
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('Not found');
  });

  it('answers 404 outside the renderer folder and for another host; nothing is read', async () => {
    const before = fetched.length;
    for (const url of ['station://app/..%2Fsecret.txt', 'station://app/%2F..%2F..%2Fsecret.txt', 'station://other/index.html']) {
      expect([url, (await serve(url)).status]).toEqual([url, 404]);
    }
    expect(fetched.length).toBe(before);
    // `%2E%2E/` is normalised away by the URL parser: it names renderer/secret.txt, which does not exist.
    expect((await serve('station://app/%2E%2E/secret.txt')).status).toBe(404);
  });

  it('a fetch answering non-2xx is a 404 too', async () => {
    const r = await serveAppRequest(new Request('station://app/index.html'), path.join(dir, 'renderer'), async () => new Response('', { status: 500 }));
    expect(r.status).toBe(404);
  });

  it('appRequestTarget names the reason', () => {
    expect(appRequestTarget('station://app/%E0%A4%A', dir)).toMatchObject({ status: 400, reason: 'malformed percent-escape' });
    expect(appRequestTarget('station://app/', dir)).toEqual({ file: path.join(dir, 'index.html') });
  });
});

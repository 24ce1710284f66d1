/**
 * The `station://app/<path>` protocol: which file of the built renderer a
 * request names, and the answer. Never throws: a malformed percent-escape is
 * 400, anything outside the renderer folder or missing is 404 (issue 15
 * item 7). No electron import, so it is tested without the binary.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RENDERER_CSP } from '../../shared/domain/page-csp';
import { APP_HOST, APP_SCHEME } from './channels';

/** Where a request goes: a file under the renderer folder, or an HTTP status to answer with. */
export type AppTarget = { file: string } | { status: 400 | 404; reason: string };

/**
 * Resolves `url` (`station://app/assets/x.js`) to a file under `rendererDir`.
 * `/` is `index.html`. 400 for a URL or escape that cannot be decoded
 * (`%E0%A4%A`); 404 for another scheme or host, or a path that leaves the folder.
 */
export function appRequestTarget(url: string, rendererDir: string): AppTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { status: 400, reason: 'malformed URL' };
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return { status: 404, reason: 'not the app origin' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(u.pathname);
  } catch {
    return { status: 400, reason: 'malformed percent-escape' };
  }
  if (decoded.includes('\0')) return { status: 400, reason: 'NUL in path' };
  const rel = decoded.replace(/^\/+/, '') || 'index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, rel);
  if (file === root || !file.startsWith(root + path.sep)) return { status: 404, reason: 'outside the renderer folder' };
  return { file };
}

/** Reads a file URL (Electron's `net.fetch` in main). */
export type FileFetch = (fileUrl: string) => Promise<Response>;

/**
 * Answers one app-protocol request: the file with the renderer's CSP and
 * nosniff, or a plain-text 400/404. A file that is missing or unreadable
 * (the fetch rejects or answers non-2xx) is 404, never a rejected promise.
 */
export async function serveAppRequest(request: Request, rendererDir: string, fetchFile: FileFetch): Promise<Response> {
  const target = appRequestTarget(request.url, rendererDir);
  const plain = (status: number, text: string) => new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });
  if ('status' in target) return plain(target.status, target.status === 400 ? 'Bad request' : 'Not found');
  let res: Response;
  try {
    res = await fetchFile(pathToFileURL(target.file).toString());
  } catch {
    return plain(404, 'Not found');
  }
  if (!res.ok) return plain(404, 'Not found');
  const headers = new Headers(res.headers);
  headers.set('content-security-policy', RENDERER_CSP);
  headers.set('x-content-type-options', 'nosniff');
  return new Response(res.body, { status: res.status, headers });
}

/**
 * The training sandbox's OAuth client secrets, made per data folder (issue 21
 * item 3): the demo secrets printed by `npm run sandbox` are public, so the
 * sandbox embedded in a station must not accept them. One random key is
 * kept in `<data-dir>/training-secret` (owner read/write only, 0600), made
 * at the first training start and reused at every restart; each demo
 * client's secret is derived from it (HMAC-SHA256 of the client id), so two
 * data folders never share a secret and a restart keeps the station's own.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** File of the training key, beside `training.sqlite`. */
export function trainingSecretFile(dataDir: string): string {
  return path.join(dataDir, 'training-secret');
}

/** A key as written: 43 base64url characters (32 random bytes). */
const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Reads the data folder's training key, making it (32 random bytes,
 * base64url, mode 0600, created exclusively) when the file is missing. A
 * file that does not hold a key (empty, truncated by a crash) is replaced by
 * a new one: the key is only shared by this station and its own embedded
 * sandbox, so a new one loses nothing. The file's mode is put back to 0600
 * when it was widened.
 *
 * @param dataDir data folder (must exist)
 * @returns the key, 43 base64url characters
 * @throws the file system's error (EACCES, EROFS, ...) when the key can be neither read nor written
 */
function trainingKey(dataDir: string): string {
  const file = trainingSecretFile(dataDir);
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== undefined && KEY_SHAPE.test(text)) {
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return text;
  }
  const key = randomBytes(32).toString('base64url');
  // Written aside and renamed: a crash never leaves half a key under the real name.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, key + '\n', { mode: 0o600, flag: 'w' });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return key;
}

/**
 * The secrets the embedded training sandbox takes for its demo clients,
 * by client id (`createSandbox({clientSecrets})`), derived from the data
 * folder's training key (see the module doc).
 *
 * @param dataDir data folder (must exist)
 * @param clientIds the sandbox seed's client ids
 * @returns `{[clientId]: secret}`, each secret 43 base64url characters
 * @throws the file system's error when the key file can be neither read nor written
 */
export function trainingClientSecrets(dataDir: string, clientIds: ReadonlyArray<string>): Record<string, string> {
  const key = trainingKey(dataDir);
  return Object.fromEntries(clientIds.map((id) => [id, createHmac('sha256', key).update(`training-client:${id}`).digest('base64url')]));
}

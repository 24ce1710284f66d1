/**
 * The platform account a station uses when none is given at launch, entered
 * once in the Settings screen (issue 15 "Private data", issue 7 item 12):
 * platform URL, auth URL and client id in `<dataDir>/account.json` (0600),
 * the client secret in the OS's secret store, never in a file in clear, never
 * on the command line (where every user sees it in the process list).
 *
 * Secret stores: Electron's `safeStorage` in the desktop app
 * (electron/main/secret-store.ts), the OS keyring through `@napi-rs/keyring`
 * in the headless host (electron/host/keyring.ts). Where neither works (a
 * server without a Secret Service) the secret comes from the environment
 * (`STATION_CLIENT_SECRET`), and saving one says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DATA_FILE_MODE } from '../data-dir';
import type { SecretStore } from '../common/services';

/** The store cannot keep a secret on this machine; `message` says what to do instead. */
export class SecretStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretStoreUnavailable';
  }
}

/** A store that keeps nothing: the secret must come from STATION_CLIENT_SECRET. `why` names the reason. */
export function environmentOnlySecrets(why: string): SecretStore {
  const message = `No secret store on this machine (${why}): set STATION_CLIENT_SECRET in the station's environment instead`;
  return {
    label: `none (${why}); STATION_CLIENT_SECRET from the environment`,
    get: () => null,
    set: () => {
      throw new SecretStoreUnavailable(message);
    },
    delete: () => undefined,
  };
}

/** Non-secret part of a saved account. */
export const SavedAccount = z.object({
  /** `{base_url}`, e.g. `https://acme.example/api/2026-09`. */
  platformUrl: z.string().min(1),
  /** `{auth_url}`; absent: derived from the platform URL (config.ts). */
  authUrl: z.string().min(1).optional(),
  clientId: z.string().min(1),
});
export type SavedAccount = z.infer<typeof SavedAccount>;

/** `<dataDir>/account.json`. */
export function accountFile(dataDir: string): string {
  return path.join(dataDir, 'account.json');
}

/**
 * The saved account of `dataDir`, or null when none was saved.
 * @throws Error naming the file when it exists but is not a saved account (the file is kept).
 */
export function readSavedAccount(dataDir: string): SavedAccount | null {
  const file = accountFile(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: fix or delete it, then save the account again in Settings`);
  }
  const parsed = SavedAccount.safeParse(data);
  if (!parsed.success) throw new Error(`${file} is not a saved account (${parsed.error.issues[0]?.message ?? 'invalid'}): fix or delete it`);
  return parsed.data;
}

/** Writes the account file (0600, atomically: temp file then rename). */
export function writeSavedAccount(dataDir: string, account: SavedAccount): void {
  const file = accountFile(dataDir);
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(account, null, 2)}\n`, { mode: DATA_FILE_MODE });
  fs.renameSync(tmp, file);
}

/** Removes the saved account (not an error when there is none). */
export function forgetSavedAccount(dataDir: string): void {
  fs.rmSync(accountFile(dataDir), { force: true });
}

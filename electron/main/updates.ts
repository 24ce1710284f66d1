/**
 * Auto-update of the packaged app through `electron-updater`: the feed is the
 * generic HTTPS server named at build time (build/electron-builder.yml
 * `publish`, from STATION_UPDATE_URL) or, at run time, STATION_UPDATE_URL in
 * the station's environment. Not in development (`app.isPackaged` false) and
 * not without a feed. An update is downloaded in the background and installed
 * when the station quits (never in the middle of a packing shift).
 */

/** Where to look for updates, or null for "do not check". */
export function updateFeed(isPackaged: boolean, env: Readonly<Record<string, string | undefined>>, builtInFeed: boolean): { url: string } | { builtIn: true } | null {
  if (!isPackaged) return null;
  const url = env.STATION_UPDATE_URL?.trim();
  if (url) {
    if (!/^https:\/\//.test(url)) throw new Error(`STATION_UPDATE_URL must be an https:// URL, got "${url}"`);
    return { url };
  }
  return builtInFeed ? { builtIn: true } : null;
}

/**
 * Starts a background check; errors are logged, never thrown (an unreachable
 * feed must not stop the bench). `builtInFeed`: app-update.yml is in the resources.
 */
export async function startUpdateCheck(isPackaged: boolean, builtInFeed: boolean, log: (line: string) => void, env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  try {
    const feed = updateFeed(isPackaged, env, builtInFeed);
    if (!feed) return;
    const { autoUpdater } = await import('electron-updater');
    if ('url' in feed) autoUpdater.setFeedURL({ provider: 'generic', url: feed.url });
    autoUpdater.autoDownload = true;
    autoUpdater.autoInstallOnAppQuit = true;
    const result = await autoUpdater.checkForUpdates();
    if (result?.isUpdateAvailable) log(`update ${result.updateInfo.version} is being downloaded; it is installed when the station quits`);
  } catch (e) {
    log(`update check failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

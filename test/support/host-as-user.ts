/**
 * Runs the host CLI (electron/host/cli.ts `hostMain`) as another user, for
 * the permission tests of a root run (test/integration/core/database-faults.test.ts;
 * issue 21 item 9):
 *
 *   node --import tsx test/support/host-as-user.ts <uid> <gid> [host options]
 *
 * Started as root, it loads the station's code first (the sources, tsx's
 * transforms and the better-sqlite3 addon), then drops to `uid`/`gid` with no
 * supplementary groups and runs the host. So the unprivileged user meets the
 * file modes of the data folder under test, and never needs to read the
 * clone: the suite passes wherever the clone lies, even under a folder that
 * user may not enter (a spawn with `uid` could not even load `tsx` there).
 */
import Database from 'better-sqlite3';
import { hostMain } from '../../electron/host/cli';

const [uidArg, gidArg, ...hostArgs] = process.argv.slice(2);
const uid = Number(uidArg);
const gid = Number(gidArg);
if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid < 0 || gid < 0) {
  process.stderr.write('usage: host-as-user.ts <uid> <gid> [host options]\n');
  process.exit(2);
}
// better-sqlite3 loads its native addon at the first database, lazily: load it while it can still be read.
new Database(':memory:').close();
process.setgroups?.([]);
process.setgid?.(gid);
process.setuid?.(uid);
// The clone may be out of the user's reach: nothing relative to it is used from here on.
process.chdir('/');
void hostMain(hostArgs);

/**
 * One run at a time of a warehouse task (a pull on NOTIFY, a push after an import): a call while it runs asks
 * for one more run after it, and waits for that, so a burst of notifications costs at most two runs.
 */

/** `task` coalesced: the returned function starts it, or marks one more run and returns the running one. Errors reach the callers. */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    const run = async (): Promise<void> => {
      do {
        again = false;
        await task();
      } while (again);
    };
    running = run().finally(() => {
      running = null;
    });
    return running;
  };
}

/**
 * Packing slips on the bench (issue 11): the slip jobs of the order in view
 * (`slips.list`, kept current by `slips.changed`), and Alt+K, which prints
 * the slip of the order being shipped or of the scanned shipment's order
 * (`slips.print`). A slip that waits or fails says so in the banner.
 */
import { create } from 'zustand';
import type { SlipJobView } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { useApp } from './app';

interface SlipsState {
  /** Order whose slips are shown, or null. */
  orderId: number | null;
  jobs: SlipJobView[];
  printing: boolean;
  load(orderId: number | null): Promise<void>;
  /** Prints a slip now; one press, one slip (a repeat while one is being asked for is ignored). */
  print(target: { orderId: number } | { trackingNumber: string }): Promise<void>;
  changed(job: SlipJobView): void;
}

/**
 * How far a job has come: events and command answers can arrive out of order,
 * and an older view must never replace a newer one. Attempts grow at each
 * claim; within an attempt a job goes printing → queued (retry) or done.
 */
export function slipProgress(j: Pick<SlipJobView, 'attempts' | 'state'>): number {
  return j.attempts * 3 + (j.state === 'printing' ? 0 : j.state === 'queued' ? 1 : 2);
}

const newer = (a: SlipJobView, b: SlipJobView | undefined): SlipJobView => (b && slipProgress(b) > slipProgress(a) ? b : a);

/** Slip jobs store. */
export const useSlips = create<SlipsState>()((set, get) => ({
  orderId: null,
  jobs: [],
  printing: false,
  async load(orderId) {
    set({ orderId, jobs: [] });
    if (orderId === null) return;
    try {
      const listed = await invoke('slips.list', { orderId });
      if (get().orderId !== orderId) return;
      // Events that arrived while the list was on its way are newer than the list.
      const seen = new Map(get().jobs.map((j) => [j.id, j]));
      const jobs = listed.map((j) => newer(j, seen.get(j.id)));
      for (const j of seen.values()) if (!jobs.some((x) => x.id === j.id)) jobs.push(j);
      set({ jobs: jobs.sort((a, b) => b.id - a.id) });
    } catch (e) {
      useApp.getState().fail(t('slips.notLoaded'), e);
    }
  },
  async print(target) {
    if (get().printing) return;
    set({ printing: true });
    try {
      const job = await invoke('slips.print', target);
      if (get().orderId !== job.orderId) await get().load(job.orderId);
      else get().changed(job);
      useApp.getState().flash('info', t('slips.asked', { order: job.orderNumber }));
    } catch (e) {
      useApp.getState().fail(t('slips.notPrinted'), e);
    } finally {
      set({ printing: false });
    }
  },
  changed(job) {
    if (job.state === 'failed') useApp.getState().flash('warn', t('slips.failed', { order: job.orderNumber }), job.lastError ?? undefined);
    if (job.orderId !== get().orderId) return;
    set((s) => ({ jobs: [newer(job, s.jobs.find((j) => j.id === job.id)), ...s.jobs.filter((j) => j.id !== job.id)].sort((a, b) => b.id - a.id) }));
  },
}));

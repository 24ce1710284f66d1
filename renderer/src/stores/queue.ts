/**
 * Queue panel: the outbox rows (`outbox.list`), sending a refused row again
 * (`outbox.retry`) and closing one the platform surely refused
 * (`outbox.dismiss`, with a note, after a confirmation).
 */
import { create } from 'zustand';
import type { OutboxRowView } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { rowTitle } from '../lib/queue';
import { useApp } from './app';

/** Done rows the panel shows. */
const QUEUE_DONE_LIMIT = 20;

interface QueueState {
  pending: OutboxRowView[];
  done: OutboxRowView[];
  loading: boolean;
  /** Row waiting for the dismiss confirmation. */
  confirmDismiss: OutboxRowView | null;
  load(): Promise<void>;
  retry(row: OutboxRowView): Promise<void>;
  /** The packer checked the platform and confirms posting a shipment with an unknown outcome again (`outbox.confirmResend`). */
  confirmResend(row: OutboxRowView): Promise<void>;
  askDismiss(row: OutboxRowView): void;
  cancelDismiss(): void;
  dismiss(row: OutboxRowView, note: string): Promise<void>;
}

/** Queue store (see file comment). */
export const useQueue = create<QueueState>()((set, get) => ({
  pending: [],
  done: [],
  loading: false,
  confirmDismiss: null,

  async load() {
    set({ loading: true });
    try {
      const list = await invoke('outbox.list', { doneLimit: QUEUE_DONE_LIMIT });
      set({ pending: list.pending, done: list.done, loading: false });
    } catch (e) {
      set({ loading: false });
      useApp.getState().fail(t('queue.loadFailed'), e);
    }
  },

  async retry(row) {
    const app = useApp.getState();
    try {
      await invoke('outbox.retry', { id: row.id });
      app.flash('info', t('queue.sendingAgain', { title: rowTitle(row) }), t('queue.sendingAgainDetail'));
    } catch (e) {
      app.fail(t('queue.sendAgainFailed', { title: rowTitle(row) }), e);
    }
    await get().load();
  },

  async confirmResend(row) {
    const app = useApp.getState();
    try {
      await invoke('outbox.confirmResend', { id: row.id });
      app.flash('info', t('queue.postingAgain', { title: rowTitle(row) }), t('queue.postingAgainDetail'));
    } catch (e) {
      app.fail(t('queue.postAgainFailed', { title: rowTitle(row) }), e);
    }
    await get().load();
  },

  askDismiss(row) {
    set({ confirmDismiss: row });
  },
  cancelDismiss() {
    set({ confirmDismiss: null });
  },

  async dismiss(row, note) {
    const app = useApp.getState();
    set({ confirmDismiss: null });
    try {
      const trimmed = note.trim();
      await invoke('outbox.dismiss', trimmed === '' ? { id: row.id } : { id: row.id, note: trimmed });
      app.flash('ok', t('queue.dismissed', { title: rowTitle(row) }), t('queue.dismissedDetail'));
    } catch (e) {
      app.fail(t('queue.dismissFailed', { title: rowTitle(row) }), e);
    }
    await get().load();
  },
}));

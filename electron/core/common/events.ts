/**
 * The core's event emitter: handlers and the outbox emit `StationEvents`
 * (shared/contract/commands/), the transports subscribe and push them to
 * the screens (IPC `webContents.send`, the host's Server-Sent Events).
 */
import type { EventName, StationEvents } from '../../../shared/contract/commands';

/** Typed publish/subscribe of {@link StationEvents}. */
export interface StationEmitter {
  /** Sends `payload` to every listener of `name`; a throwing listener does not stop the others. */
  emit<E extends EventName>(name: E, payload: StationEvents[E]): void;
  /** Subscribes; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: StationEvents[E]) => void): () => void;
}

/** Builds an emitter. `onListenerError` sees listener failures (for logs). */
export function createEmitter(onListenerError?: (error: unknown, name: EventName) => void): StationEmitter {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  return {
    emit(name, payload) {
      for (const l of [...(listeners.get(name) ?? [])]) {
        try {
          (l as (p: typeof payload) => void)(payload);
        } catch (e) {
          onListenerError?.(e, name);
        }
      }
    },
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener as (payload: never) => void);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },
  };
}

/**
 * Preload (sandboxed, context-isolated): exposes `window.station = { invoke, on }`
 * and nothing else — never `ipcRenderer` nor the IPC event object. Failed
 * commands reject with the plain `{code, message, details?}` of the station
 * error (the renderer turns it back into a StationError).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { CommandName, EventName, StationApi } from '../../shared/contract';
import { IPC_EVENT, IPC_INVOKE, type IpcResult } from '../main/channels';

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

// One IPC listener for all events; the event object stays here.
ipcRenderer.on(IPC_EVENT, (_event, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return;
  for (const l of [...(listeners.get(name) ?? [])]) l(payload);
});

const station = {
  async invoke(name: CommandName, input: unknown) {
    const result = (await ipcRenderer.invoke(IPC_INVOKE, name, input)) as IpcResult;
    if (result.ok) return result.value as never;
    return Promise.reject(result.error);
  },
  on(event: EventName, listener: (payload: never) => void) {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => {
      set.delete(l);
    };
  },
} satisfies StationApi;

contextBridge.exposeInMainWorld('station', station);

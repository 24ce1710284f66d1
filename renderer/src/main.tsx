/**
 * Renderer entry: picks the transport once (preload bridge or HTTP to the
 * headless host), installs it for the stores, and renders the bench.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CommandName, StationApi } from '../../shared/contract';
import { setStation } from './api';
import { App } from './App';
import { asStationError } from './lib/errors';
import { useApp } from './stores/app';
import { pickTransport } from './transport/pick';
import './styles.css';

const root = createRoot(document.getElementById('root')!);
const picked = pickTransport(window, (link) => useApp.getState().setLink(link));

if (picked.kind === 'none') {
  root.render(
    <main className="fatal" role="alert">
      <h1>Shipping Station</h1>
      <p>{picked.reason}</p>
    </main>,
  );
} else {
  // The IPC bridge rejects with plain {code, message, details}: make every rejection a StationError.
  const api: StationApi = {
    invoke: (name: CommandName, input: never) => picked.api.invoke(name, input).catch((e: unknown) => Promise.reject(asStationError(e))),
    on: (event, listener) => picked.api.on(event, listener),
  } as StationApi;
  setStation(api, picked.kind === 'electron');
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

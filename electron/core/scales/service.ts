/**
 * The station's scale: finds it, opens it, turns its reports into
 * {@link ScaleState} and reopens it when it is plugged back (hot-plug by
 * polling the device list, like the printers' status). "No scale" is a normal
 * state: the packer types the weight.
 */
import { findHidScale, parseHidReport, type HidHandle, type HidLibrary } from './hid';
import type { ScaleReading } from './reading';
import { lineSplitter, parseContinuous, parseMtSics, type SerialHandle, type SerialLibrary, type SerialProtocol } from './serial';

/** Which scale the station uses (settings). */
export type ScaleConfig =
  | { kind: 'none' }
  /** The first USB HID scale found (known id or HID POS usage page 0x8D). */
  | { kind: 'hid' }
  | { kind: 'serial'; path: string; baudRate: number; protocol: SerialProtocol };

/** What the header shows and the screens use. */
export interface ScaleState {
  kind: ScaleConfig['kind'];
  /** True while a scale is open and reporting. */
  connected: boolean;
  /** Device name (e.g. "Dymo M25", "/dev/ttyUSB0"), null when none. */
  name: string | null;
  /** Last reading, null until the first one after opening. */
  reading: ScaleReading | null;
  /** Why no scale is open (library missing, port error), null when fine or simply absent. */
  problem: string | null;
}

/** Dependencies of {@link createScaleService}; the libraries are loaded lazily and may be missing. */
export interface ScaleServiceDeps {
  loadHid: () => Promise<{ lib?: HidLibrary; error?: string }>;
  loadSerial: () => Promise<{ lib?: SerialLibrary; error?: string }>;
  /** Called on every state change (connection or reading). */
  onChange: (state: ScaleState) => void;
  /** Device list poll while no scale is open, ms (default 1000). */
  rescanMs?: number;
  /** MT-SICS `SI` poll interval, ms (default 200). */
  pollMs?: number;
}

/** A running scale. */
export interface ScaleService {
  state(): ScaleState;
  /** Switches to another scale configuration (closes the current one). */
  configure(config: ScaleConfig): void;
  /** Closes the device and stops polling. */
  close(): void;
}

function sameReading(a: ScaleReading | null, b: ScaleReading | null): boolean {
  return a === b || (!!a && !!b && a.status === b.status && a.kg === b.kg && a.decimals === b.decimals);
}

/** Starts the scale described by `config`. Never throws: problems go into the state. */
export function createScaleService(config: ScaleConfig, deps: ScaleServiceDeps): ScaleService {
  const rescanMs = deps.rescanMs ?? 1000;
  const pollMs = deps.pollMs ?? 200;
  let current: ScaleConfig = config;
  let st: ScaleState = { kind: config.kind, connected: false, name: null, reading: null, problem: null };
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let hid: HidHandle | undefined;
  let serial: SerialHandle | undefined;

  const set = (patch: Partial<ScaleState>) => {
    const next = { ...st, ...patch };
    if (
      next.connected === st.connected &&
      next.name === st.name &&
      next.problem === st.problem &&
      next.kind === st.kind &&
      sameReading(next.reading, st.reading)
    )
      return;
    st = next;
    deps.onChange(st);
  };

  const stopDevice = () => {
    if (timer) clearTimeout(timer);
    if (poll) clearInterval(poll);
    timer = poll = undefined;
    const h = hid;
    hid = undefined;
    if (h) {
      h.removeAllListeners();
      try {
        h.close();
      } catch {
        // already gone (unplugged)
      }
    }
    const s = serial;
    serial = undefined;
    if (s) {
      s.removeAllListeners();
      s.on('error', () => undefined); // a late error of the closing port is not ours to report
      if (s.isOpen) s.close(() => undefined);
    }
  };

  const lost = (gen: number, problem: string | null) => {
    if (gen !== generation) return;
    stopDevice();
    set({ connected: false, reading: null, problem, name: current.kind === 'serial' ? current.path : null });
    timer = setTimeout(() => void attempt(gen), rescanMs);
  };

  const openHid = (gen: number, lib: HidLibrary) => {
    const found = findHidScale(lib.devices());
    if (!found) {
      set({ connected: false, name: null, reading: null, problem: null });
      timer = setTimeout(() => void attempt(gen), rescanMs);
      return;
    }
    let h: HidHandle;
    try {
      h = new lib.HID(found.path);
    } catch (e) {
      lost(gen, `cannot open ${found.name}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    hid = h;
    // The first report after opening can be stale (last weight before the scale slept): dropped.
    let first = true;
    h.on('data', (data) => {
      if (gen !== generation) return;
      if (first) {
        first = false;
        return;
      }
      const r = parseHidReport(data);
      if (r) set({ reading: r });
    });
    h.on('error', () => lost(gen, null)); // node-hid reports an unplug as a read error
    set({ connected: true, name: found.name, reading: null, problem: null });
  };

  const openSerial = (gen: number, lib: SerialLibrary, cfg: Extract<ScaleConfig, { kind: 'serial' }>) => {
    let s: SerialHandle;
    try {
      s = new lib.SerialPort({ path: cfg.path, baudRate: cfg.baudRate, autoOpen: true });
    } catch (e) {
      lost(gen, `${cfg.path}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    serial = s;
    const parse = cfg.protocol === 'mt-sics' ? parseMtSics : parseContinuous;
    s.on(
      'data',
      lineSplitter((line) => {
        if (gen !== generation) return;
        const r = parse(line);
        if (r) set({ reading: r });
      }),
    );
    s.on('open', () => {
      if (gen !== generation) return;
      set({ connected: true, name: cfg.path, problem: null });
      if (cfg.protocol === 'mt-sics') {
        // SI: the current weight at once, stable or not (S would wait for stability).
        poll = setInterval(() => {
          if (serial?.isOpen) serial.write('SI\r\n');
        }, pollMs);
        s.write('SI\r\n');
      }
    });
    s.on('error', (e) => lost(gen, `${cfg.path}: ${e.message}`));
    s.on('close', () => lost(gen, null));
  };

  const attempt = async (gen: number) => {
    if (gen !== generation) return;
    timer = undefined;
    const cfg = current;
    if (cfg.kind === 'none') return;
    if (cfg.kind === 'hid') {
      const { lib, error } = await deps.loadHid();
      if (gen !== generation) return;
      if (!lib) return set({ connected: false, problem: `USB scales unavailable: ${error ?? 'node-hid missing'}` });
      try {
        openHid(gen, lib);
      } catch (e) {
        lost(gen, e instanceof Error ? e.message : String(e));
      }
      return;
    }
    const { lib, error } = await deps.loadSerial();
    if (gen !== generation) return;
    if (!lib) return set({ connected: false, problem: `serial scales unavailable: ${error ?? 'serialport missing'}` });
    openSerial(gen, lib, cfg);
  };

  const start = () => {
    generation++;
    stopDevice();
    set({ kind: current.kind, connected: false, name: current.kind === 'serial' ? current.path : null, reading: null, problem: null });
    void attempt(generation);
  };

  start();
  return {
    state: () => st,
    configure(next) {
      current = next;
      start();
    },
    close() {
      generation++;
      stopDevice();
    },
  };
}

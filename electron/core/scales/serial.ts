/**
 * Serial bench scales through `serialport` (passed in; tests use a fake with
 * its interface): Mettler Toledo MT-SICS (polled with `SI`, MT-SICS Reference
 * Manual level 0: `S S     1.234 kg` stable, `S D     1.234 kg` dynamic,
 * `S +` overload, `S -` underload, `S I` busy) and plain continuous output
 * (one weight line per reading, e.g. `ST,GS,+  1.234kg`, `US,GS,+  1.200kg`,
 * `OL,GS,...`, or just `1.234 kg`).
 */
import { UNIT_KG, toKg, type ScaleReading, type ScaleUnit } from './reading';

/** Protocol spoken by a serial scale, in settings. */
export type SerialProtocol = 'mt-sics' | 'continuous';

/** Options of a serial port (the `serialport` constructor's subset). */
export interface SerialOpenOptions {
  path: string;
  baudRate: number;
  autoOpen?: boolean;
}

/** The subset of serialport's `SerialPort` the station uses. */
export interface SerialHandle {
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'open', listener: () => void): unknown;
  write(data: string | Buffer): boolean;
  removeAllListeners(event?: string): unknown;
  close(callback?: (error?: Error | null) => void): void;
  readonly isOpen: boolean;
}

/** The subset of the `serialport` module the station uses. */
export interface SerialLibrary {
  SerialPort: {
    new (options: SerialOpenOptions): SerialHandle;
    list(): Promise<Array<{ path: string; manufacturer?: string | undefined }>>;
  };
}

const UNIT_ALIASES: Record<string, ScaleUnit> = { mg: 'mg', g: 'g', kg: 'kg', t: 't', ct: 'ct', oz: 'oz', lb: 'lb', lbs: 'lb', ozt: 'ozt' };

function weightOf(text: string): { kg: number; decimals: number } | null {
  const m = /([+-]?)\s*(\d+(?:\.(\d+))?)\s*([a-zA-Z]+)?/.exec(text);
  if (!m) return null;
  const unit = UNIT_ALIASES[(m[4] ?? 'kg').toLowerCase()];
  if (!unit || !(unit in UNIT_KG)) return null;
  const frac = m[3]?.length ?? 0;
  const digits = Number(m[2]!.replace('.', ''));
  return toKg(m[1] === '-' ? -digits : digits, -frac, unit);
}

/**
 * Parses one MT-SICS response line to `S`/`SI` (without CR LF). Returns null
 * for lines that are not weight responses (echo, `ES` syntax error, `S I` busy).
 */
export function parseMtSics(line: string): ScaleReading | null {
  const m = /^S\s+([SD+\-I])\s*(.*)$/.exec(line.trim());
  if (!m) return null;
  switch (m[1]) {
    case '+':
      return { status: 'over_capacity', kg: null, decimals: 0 };
    case '-':
      return { status: 'under_zero', kg: null, decimals: 0 };
    case 'I':
      return null;
  }
  const w = weightOf(m[2] ?? '');
  if (!w) return null;
  if (w.kg < 0) return { status: 'under_zero', kg: w.kg, decimals: w.decimals };
  if (m[1] === 'D') return { status: 'motion', kg: w.kg, decimals: w.decimals };
  return { status: w.kg === 0 ? 'zero' : 'stable', kg: w.kg, decimals: w.decimals };
}

/**
 * Parses one line of continuous output. Stability comes from the usual
 * header (`ST` stable, `US` unstable, `OL` overload) or a `?`/`M` motion
 * mark; a bare weight counts as stable (scales that print only settled weights).
 */
export function parseContinuous(line: string): ScaleReading | null {
  const t = line.trim();
  if (!t) return null;
  if (/^OL\b|overload|\bO-?L\b/i.test(t)) return { status: 'over_capacity', kg: null, decimals: 0 };
  const head = /^(ST|US|QT|NT|GS|WT)\b/i.exec(t)?.[1]?.toUpperCase();
  const body = t.replace(/^(?:[A-Z]{2},)+/i, '');
  const w = weightOf(body);
  if (!w) return null;
  if (w.kg < 0) return { status: 'under_zero', kg: w.kg, decimals: w.decimals };
  const motion = head === 'US' || /[?]|\bM\b/.test(body);
  if (motion) return { status: 'motion', kg: w.kg, decimals: w.decimals };
  return { status: w.kg === 0 ? 'zero' : 'stable', kg: w.kg, decimals: w.decimals };
}

/** Splits a byte stream into CR/LF-terminated lines across chunks. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('latin1');
    const parts = pending.split(/\r\n|\r|\n/);
    pending = parts.pop() ?? '';
    if (pending.length > 4096) pending = ''; // garbage without line ends
    for (const p of parts) if (p.trim()) onLine(p);
  };
}

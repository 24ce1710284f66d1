/**
 * Printer profiles applied to ZPL (electron/core/printing/zpl/profile.ts): each
 * profile field checked by decoding the commands of the output (Zebra ZPL II
 * Programming Guide: ~SD, ^PW, ^LL, ^PR, ^MT, ^LT), and the profile schema's
 * field-named errors.
 */
import { describe, expect, it } from 'vitest';
import { applyProfile, applyProfileBytes, mmToDots } from '../../../../../electron/core/printing';
import { PrinterProfileSchema, type PrinterProfile } from '../../../../../shared/contract/printer-profile';

/** ZPL split into commands: prefix + two-letter name, then the parameter text (field data kept whole). */
function decode(zpl: string): Array<{ cmd: string; params: string }> {
  const out: Array<{ cmd: string; params: string }> = [];
  for (const m of zpl.matchAll(/([\^~])([A-Za-z0-9@]{2})([^^~]*)/g)) out.push({ cmd: `${m[1]}${(m[2] ?? '').toUpperCase()}`, params: m[3] ?? '' });
  return out;
}
/** Parameters of every occurrence of `cmd`. */
const all = (zpl: string, cmd: string): string[] => decode(zpl).filter((c) => c.cmd === cmd).map((c) => c.params);
/** Commands of each ^XA..^XZ format. */
const formats = (zpl: string): Array<Array<{ cmd: string; params: string }>> => (zpl.match(/\^XA[\s\S]*?\^XZ/gi) ?? []).map(decode);

const BASE: PrinterProfile = { dpi: 203, widthMm: 101.6, heightMm: 152.4, darkness: 18, speedIps: 6, media: 'direct_thermal', topOffsetDots: 0 };
// Carrier ZPL made for 203 dpi with its own media settings; two labels.
const CARRIER =
  '^XA^MMC^MTT^PR2^MD10~SD25^LT-10^CI28^PW812^LL1218^FO50,60^A0N,30,28^FDVia Libertà^FS^BY3,2.5,200^FO100,300^BCN,200,Y,N,N^FD123456789012^FS^XZ' +
  '^XA^PW812^LL1218^FO10,10^GB400,3,3^FS^XZ';

describe('applyProfile', () => {
  it('sets ^PW/^LL from the label size at the profile dpi, once per format, replacing the carrier values', () => {
    for (const [dpi, w, h] of [
      [203, 812, 1218],
      [300, 1200, 1800],
      [600, 2400, 3600],
    ] as const) {
      const out = applyProfile(CARRIER, { ...BASE, dpi });
      for (const f of formats(out)) {
        expect(f.filter((c) => c.cmd === '^PW').map((c) => Number(c.params))).toEqual([w]);
        expect(f.filter((c) => c.cmd === '^LL').map((c) => Number(c.params))).toEqual([h]);
      }
    }
    const small = applyProfile(CARRIER, { ...BASE, widthMm: 50, heightMm: 30 });
    expect(all(small, '^PW').map(Number)).toEqual([400, 400]);
    expect(all(small, '^LL').map(Number)).toEqual([240, 240]);
    expect(mmToDots(50, 300)).toBe(591);
  });

  it('sets the absolute darkness once with ~SD (two digits), dropping the carrier ^MD/~SD', () => {
    for (const d of [0, 7, 30]) {
      const out = applyProfile(CARRIER, { ...BASE, darkness: d });
      expect(all(out, '~SD')).toEqual([String(d).padStart(2, '0')]);
      expect(all(out, '^MD')).toEqual([]);
      expect(out.indexOf('~SD')).toBeLessThan(out.indexOf('^XA'));
    }
  });

  it('sets ^PR to the profile speed in every format, dropping the carrier one', () => {
    const out = applyProfile(CARRIER, { ...BASE, speedIps: 12 });
    expect(all(out, '^PR')).toEqual(['12', '12']);
  });

  it('sets ^MT D or T from the media', () => {
    expect(all(applyProfile(CARRIER, { ...BASE, media: 'direct_thermal' }), '^MT')).toEqual(['D', 'D']);
    expect(all(applyProfile(CARRIER, { ...BASE, media: 'thermal_transfer' }), '^MT')).toEqual(['T', 'T']);
  });

  it('sets ^LT to the top offset in dots, replacing the carrier calibration', () => {
    expect(all(applyProfile(CARRIER, { ...BASE, topOffsetDots: -24 }), '^LT').map(Number)).toEqual([-24, -24]);
    expect(all(applyProfile(CARRIER, { ...BASE, topOffsetDots: 120 }), '^LT').map(Number)).toEqual([120, 120]);
  });

  it('rescales 203-dpi ZPL for 300 and 600 dpi printers; field data untouched; ^MM dropped', () => {
    const at600 = applyProfile(CARRIER, { ...BASE, dpi: 600 });
    const first = formats(at600)[0] ?? [];
    const fo = first.filter((c) => c.cmd === '^FO').map((c) => c.params.split(',').map(Number));
    // The Code 128 keeps its centre: 167 modules at 9 dots instead of 8.87 are 22 dots wider, so it starts 11 dots left of 296.
    expect(fo).toEqual([
      [148, 177],
      [285, 887],
    ]);
    // The scaled default ^BY after ^XA, then the carrier's: module 3 -> 9 dots (3 x 2.956 = 8.87).
    expect(first.filter((c) => c.cmd === '^BY').map((c) => c.params)).toEqual(['6,3,30', '9,2.5,591']);
    expect(all(at600, '^FD')).toEqual(['Via Libertà', '123456789012']);
    expect(all(at600, '^MM')).toEqual([]);
    const at300 = applyProfile(CARRIER, { ...BASE, dpi: 300 });
    expect(all(at300, '^GB')).toEqual(['591,4,4']);
  });

  it('keeps ZPL already made for the profile dpi where it is, and bytes outside commands exact', () => {
    const zpl300 = '^XA^PW1200^LL1800^FO100,100^FDx^FS^XZ';
    expect(all(applyProfile(zpl300, { ...BASE, dpi: 300 }), '^FO')).toEqual(['100,100']);
    const utf8 = Buffer.from('^XA^CI28^FO1,1^FDStraße €^FS^XZ', 'utf8');
    const out = Buffer.from(applyProfileBytes(utf8, BASE)).toString('utf8');
    expect(out).toContain('^FDStraße €^FS');
  });
});

describe('PrinterProfileSchema', () => {
  const bad = (patch: Record<string, unknown>): { path: string; message: string } => {
    const r = PrinterProfileSchema.safeParse({ ...BASE, ...patch });
    if (r.success) throw new Error(`accepted ${JSON.stringify(patch)}`);
    const i = r.error.issues[0];
    return { path: (i?.path ?? []).join('.'), message: i?.message ?? '' };
  };
  it('accepts a full profile and rejects each field out of range, naming it', () => {
    expect(PrinterProfileSchema.parse(BASE)).toEqual(BASE);
    expect(bad({ dpi: 400 })).toEqual({ path: 'dpi', message: 'dpi must be 203, 300 or 600' });
    expect(bad({ widthMm: 5 }).message).toMatch(/^widthMm/);
    expect(bad({ heightMm: 'x' }).message).toMatch(/^heightMm/);
    expect(bad({ darkness: 31 })).toEqual({ path: 'darkness', message: 'darkness must be 0–30' });
    expect(bad({ darkness: 2.5 }).path).toBe('darkness');
    expect(bad({ speedIps: 1 })).toEqual({ path: 'speedIps', message: 'speedIps must be 2–14 ips' });
    expect(bad({ media: 'ribbon' }).path).toBe('media');
    expect(bad({ topOffsetDots: 121 }).path).toBe('topOffsetDots');
  });
});

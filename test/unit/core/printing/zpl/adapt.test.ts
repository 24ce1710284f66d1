import { describe, expect, it } from 'vitest';
import { adaptZpl, adaptZplBytes, detectZplDpi } from '../../../../../electron/core/printing';

const CARRIER = '^XA^MMC^MTD^MNY^PR6,6^MD10~SD25^LT-10^JUS^CI28^PW812^LL1218^FO50,60^A0N,30,28^FDVia Libertà ^FS^BY3,2.5,200^FO100,300^BCN,200,Y,N,N^FD123456789012^FS^GFA,8,8,1,FFFFFFFFFFFFFFFF^FS^XZ';

describe('adaptZpl', () => {
  it('strips print-mode, media, darkness, speed and config-save commands and nothing else', () => {
    const out = adaptZpl(CARRIER, { dpi: 203 });
    for (const cmd of ['^MM', '^MT', '^MN', '^PR', '^MD', '~SD', '^LT', '^JU']) expect(out).not.toContain(cmd);
    expect(out).toBe('^XA^CI28^PW812^LL1218^FO50,60^A0N,30,28^FDVia Libertà ^FS^BY3,2.5,200^FO100,300^BCN,200,Y,N,N^FD123456789012^FS^GFA,8,8,1,FFFFFFFFFFFFFFFF^FS^XZ');
  });

  it('leaves ZPL without such commands as it is', () => {
    const zpl = '^XA^FO10,10^A0N,20,20^FDPeso 2,5 kg^FS^XZ';
    expect(adaptZpl(zpl, { dpi: 203 })).toBe(zpl);
  });

  it('rescales dot values from 203 to 300 dpi, ^GF bitmaps resampled (Z64)', () => {
    const out = adaptZpl(CARRIER, { dpi: 300 });
    expect(out).toContain('^PW1200^LL1800');
    expect(out).toContain('^FO74,89^A0N,44,41');
    // Module 3 -> 4.43 ideal, 4 dots; ratio raised so wide bars keep 3 x 2.5 x 1.478 dots.
    expect(out).toContain('^BY4,2.8,296');
    expect(out).toContain('^BCN,296,Y,N,N^FD123456789012^FS');
    expect(out).toMatch(/\^GFA,24,24,2,:Z64:[A-Za-z0-9+/=]+:[0-9A-F]{4}\^FS/);
  });

  it('rescales 300 dpi ZPL down for a 203 dpi printer and honours an explicit source dpi', () => {
    // The default ^BY2 at 300 dpi is 1.35 dots at 203: 1 would keep 74 %, so 2 (module-round.ts, issue 36).
    expect(adaptZpl('^XA^PW1200^FO300,150^GB600,3,3^FS^XZ', { dpi: 203 })).toBe('^XA^BY2,3,7^PW812^FO203,102^GB406,2,2^FS^XZ');
    expect(adaptZpl('^XA^FO100,100^FDx^FS^XZ', { dpi: 300, sourceDpi: 203 })).toBe('^XA^BY3,3,15^FO148,148^FDx^FS^XZ');
    // No ^PW/^LL and no source dpi: made for 203 dpi (issue 23); the default ^BY is set scaled.
    expect(adaptZpl('^XA^FO100,100^FDx^FS^XZ', { dpi: 300 })).toBe('^XA^BY3,3,15^FO148,148^FDx^FS^XZ');
  });

  it('reads ZPL that changes its command prefix as the printer does', () => {
    expect(adaptZpl('^XA^CC++MMC+FO10,10+FDx+FS+XZ', { dpi: 300, sourceDpi: 203 })).toBe('^XA^BY3,3,15^CC++FO15,15+FDx+FS+XZ');
  });

  it('detects the source dpi from ^PW', () => {
    expect(detectZplDpi('^XA^PW812^XZ')).toBe(203);
    expect(detectZplDpi('^XA^PW1200^XZ')).toBe(300);
    expect(detectZplDpi('^XA^XZ')).toBeNull();
  });

  it('keeps every other byte on the byte path (UTF-8 and Latin-1 text alike)', () => {
    const utf8 = Buffer.from('^XA^MMT^CI28^FDCittà^FS^XZ', 'utf8');
    expect(Buffer.from(adaptZplBytes(utf8, { dpi: 203 })).toString('utf8')).toBe('^XA^CI28^FDCittà^FS^XZ');
    const latin1 = Buffer.from('^XA^MMT^CI0^FDCittà^FS^XZ', 'latin1');
    expect(Buffer.compare(Buffer.from(adaptZplBytes(latin1, { dpi: 203 })), Buffer.from('^XA^CI0^FDCittà^FS^XZ', 'latin1'))).toBe(0);
  });
});

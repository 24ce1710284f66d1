import { describe, expect, it } from 'vitest';
import { LabelDataError, renderLabelsZpl } from '../../../../electron/sandbox/labels';
import { zplFieldData } from '../../../../shared/print/text';
import { label, parcels } from './fixtures';

/** Splits ZPL into commands (`^XX...`/`~XX...`) the way a printer's parser does. */
function commands(zpl: string): Array<{ name: string; params: string }> {
  return [...zpl.matchAll(/([\^~])([^^~]*)/g)].map((m) => {
    const body = (m[2] ?? '').replace(/\n$/, '');
    return { name: `${m[1]}${body.slice(0, 2)}`, params: body.slice(2) };
  });
}

const formats = (zpl: string): string[] => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];

describe('renderLabelsZpl', () => {
  it('writes one ^XA...^XZ format per parcel, each with ^CI28, 4x6 size and the Code 128', () => {
    const labels = parcels(3);
    const zpl = renderLabelsZpl(labels);
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl.match(/\^XZ/g)).toHaveLength(3);
    const f = formats(zpl);
    expect(f).toHaveLength(3);
    f.forEach((fmt, i) => {
      const tn = labels[i]?.trackingNumber ?? '';
      expect(fmt).toContain('^CI28');
      expect(fmt).toContain('^PW812');
      expect(fmt).toContain('^LL1218');
      // The barcode field carries this parcel's number.
      expect(fmt).toMatch(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FD${tn}\\^FS`));
      expect(fmt).toContain(`^FD${tn}^FS`);
      expect(fmt).toContain(`^FD${i + 1}/3^FS`);
    });
  });

  it('sizes the label for 300 dpi', () => {
    const zpl = renderLabelsZpl([label()], 300);
    expect(zpl).toContain('^PW1200');
    expect(zpl).toContain('^LL1800');
    // Every field origin stays on the label.
    for (const c of commands(zpl).filter((c) => c.name === '^FO')) {
      const [x = -1, y = -1] = c.params.split(',').map(Number);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1200);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThan(1800);
    }
  });

  it('uses only the ZPL II commands it means to (no print-mode or media commands)', () => {
    const zpl = renderLabelsZpl(parcels(2, { cod: { amount: 45, currency: 'EUR' }, notes: 'Citofono ^Rossi~ \\ scala B' }));
    const allowed = new Set(['^XA', '^CI', '^PW', '^LL', '^LH', '^LR', '^PO', '^FO', '^GB', '^FS', '^A0', '^FB', '^FR', '^FH', '^FD', '^BY', '^BC', '^XZ']);
    const names = commands(zpl).map((c) => c.name);
    expect(names.filter((n) => !allowed.has(n))).toEqual([]);
    expect(names).not.toContain('^MM');
  });

  it('escapes ^ and ~ in field data with ^FH hex, so user text cannot start a command', () => {
    const zpl = renderLabelsZpl([label(1, 1, { reference: 'A^XZ~JA' })]);
    expect(zpl).toContain('^FH_^FDRIF. / REF.: A_5EXZ_7EJA^FS');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zplFieldData('plain')).toEqual({ fh: '', data: 'plain' });
    expect(zplFieldData('a\\b')).toEqual({ fh: '', data: 'a/b' });
  });

  it('prints Italian accents as UTF-8, line breaks and tabs as spaces and other control characters as ?', () => {
    const zpl = renderLabelsZpl([label(1, 1, { recipient: { ...label().recipient, street: 'Via Libertà 3\r\nscala\tC\u0007', city: 'Forli\u0300' } })]);
    expect(zpl).toContain('^FDFerramenta Rossi S.r.l.^FS');
    expect(zpl).toContain('47122 Forlì (FC) IT');
    // Recipient in upper case, decomposed accent composed (NFC).
    expect(zpl).toContain('^FDVIA LIBERTÀ 3 SCALA C?^FS');
    expect(zpl).toContain('90015 FORLÌ (PA)');
    for (const c of commands(zpl).filter((c) => c.name === '^FD')) for (const ch of ['\r', '\n', '\t', '\u0007']) expect(c.params).not.toContain(ch);
  });

  it('prints weight in kg, reference, date, and the COD box only when there is COD', () => {
    const withCod = renderLabelsZpl([label(1, 1, { cod: { amount: 1234.5, currency: 'eur' } })]);
    expect(withCod).toContain('2,50 kg');
    expect(withCod).toContain('RIF. / REF.: ORD-1042');
    expect(withCod).toContain('14/09/2026 10:22'); // 08:22Z is 10:22 in Rome (CEST)
    expect(withCod).toContain('^FR^FDCONTRASSEGNO / COD  1.234,50 EUR^FS');
    expect(renderLabelsZpl([label()])).not.toContain('CONTRASSEGNO');
    expect(renderLabelsZpl([label(1, 1, { cod: { amount: 0, currency: 'EUR' } })])).not.toContain('CONTRASSEGNO');
  });

  it('keeps long text inside the label by shrinking, then cutting it', () => {
    const long = 'Bartolomeo Giovanni Battista Alessandro Maria Pellegrini-Montecatini Terme di Sopra';
    const zpl = renderLabelsZpl([label(1, 1, { recipient: { ...label().recipient, name: long } })]);
    const fd = commands(zpl).find((c) => c.name === '^FD' && c.params.startsWith('BARTOLOMEO'));
    expect(fd).toBeDefined();
    expect(fd?.params.length).toBeLessThan(long.length);
    expect(long.toUpperCase().startsWith(fd?.params ?? 'x')).toBe(true);
  });

  it('names the bad field', () => {
    const bad = (f: () => unknown, field: string): void => {
      try {
        f();
        expect.unreachable(`expected LabelDataError on ${field}`);
      } catch (e) {
        expect(e).toBeInstanceOf(LabelDataError);
        expect((e as LabelDataError).field).toBe(field);
        expect((e as LabelDataError).message).toContain(field);
      }
    };
    bad(() => renderLabelsZpl([]), 'labels');
    bad(() => renderLabelsZpl([label(), label(3, 2)]), 'labels.1.parcelNumber');
    bad(() => renderLabelsZpl([label(1, 1, { trackingNumber: '1234 5678' })]), 'labels.0.trackingNumber');
    bad(() => renderLabelsZpl([label(1, 1, { recipient: { ...label().recipient, postalCode: ' ' } })]), 'labels.0.recipient.postalCode');
    bad(() => renderLabelsZpl([label(1, 1, { weightKg: Number.NaN })]), 'labels.0.weightKg');
    bad(() => renderLabelsZpl([label(1, 1, { createdAt: 'yesterday' })]), 'labels.0.createdAt');
    bad(() => renderLabelsZpl([label(1, 1, { cod: { amount: 5, currency: 'euro' } })]), 'labels.0.cod.currency');
    bad(() => renderLabelsZpl([label()], 600 as 203), 'dpi');
  });
});

/** The Rules settings form's printer choice (issue 24): a rule's `then.printer` set or cleared, an old `printerProfile` URI replaced. */
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../../shared/contract/rules';
import { rulePrinterUri } from '../../../shared/contract/rules';
import { withLongLabelPrinter, withPrinter } from '../../../renderer/src/lib/rulePrinter';

const rule = (then: Rule['then']): Rule => ({ name: 'Grandi', enabled: true, when: { countries: ['IT'] }, then });

describe('withPrinter', () => {
  it('sets the printer, keeping the rule’s other actions, and clears it for the printer in use', () => {
    const set = withPrinter(rule({ rate: 'cheapest', shipByItself: true }), 'socket://10.0.0.7:9100');
    expect(set).toEqual(rule({ rate: 'cheapest', shipByItself: true, printer: 'socket://10.0.0.7:9100' }));
    expect(withPrinter(set, '')).toEqual(rule({ rate: 'cheapest', shipByItself: true }));
  });

  it('replaces an old file’s printerProfile naming a printer, and keeps one that names none', () => {
    const old = withPrinter(rule({ rate: 'cheapest', printerProfile: 'usb://Zebra/ZD420' }), '');
    expect(old.then).toEqual({ rate: 'cheapest' });
    expect(rulePrinterUri(old.then)).toBeNull();
    const named = withPrinter(rule({ rate: 'cheapest', printerProfile: 'Zebra 203' }), 'printer:Zebra_Big');
    expect(named.then).toEqual({ rate: 'cheapest', printerProfile: 'Zebra 203', printer: 'printer:Zebra_Big' });
    expect(rulePrinterUri(named.then)).toBe('printer:Zebra_Big');
  });
});

describe('withLongLabelPrinter', () => {
  it('sets and clears the printer for labels longer than the stock, keeping the rule’s other fields', () => {
    const base = rule({ contract: 'DHL-PAKET', printer: 'socket://10.0.0.7:9100' });
    const set = withLongLabelPrinter(base, 'socket://10.0.0.8:9100');
    expect(set.then).toEqual({ contract: 'DHL-PAKET', printer: 'socket://10.0.0.7:9100', longLabelPrinter: 'socket://10.0.0.8:9100' });
    expect(withLongLabelPrinter(set, '')).toEqual(base);
  });
});

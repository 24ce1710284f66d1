/**
 * A rule's label printers as the Rules settings form changes them: the device URI in `then.printer` (issue 24)
 * and the one for labels longer than the stock in `then.longLabelPrinter` (issue 36).
 */
import { rulePrinterUri, type Rule } from '../../../shared/contract/rules';

/**
 * The rule with its labels sent to `uri` (a device URI), or to the label printer in use (`''`).
 * An earlier file's `printerProfile` that names a printer by URI is dropped (the choice replaces it);
 * one that names nothing is kept as it was. The rule's other fields are kept.
 */
export function withPrinter(rule: Rule, uri: string): Rule {
  const { printer: _printer, ...rest } = rule.then;
  const { printerProfile: _old, ...then } = rest;
  const keep = rulePrinterUri(rest) === null ? rest : then;
  return { ...rule, then: uri ? { ...keep, printer: uri } : keep };
}

/** The rule with its labels longer than the stock sent to `uri` (a device URI), or held for the packer (`''`); its other fields kept. */
export function withLongLabelPrinter(rule: Rule, uri: string): Rule {
  const { longLabelPrinter: _old, ...then } = rule.then;
  return { ...rule, then: uri ? { ...then, longLabelPrinter: uri } : then };
}

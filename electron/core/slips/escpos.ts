/**
 * Packing slips for receipt printers (ESC/POS: Epson TM-T20/T88, Star in
 * ESC/POS mode), built with node-thermal-printer. The library's printer
 * takes a custom interface ({@link SlipInterface}): its `execute(buffer)`
 * hands the command stream to the station's own transport (socket, USB,
 * print queue, folder), so slips go through the same device code and job
 * rows as labels. Commands (Epson ESC/POS reference): ESC @ init, ESC t 19
 * code page 858 (Western European with €), ESC a align, ESC E bold,
 * GS ! size, GS k 73 Code 128, GS V cut.
 */
import { slipTexts } from '../../../shared/print/slip-texts';
import { BreakLine, CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import { escposText } from '../../../shared/print/text';
import type { SlipContent } from './content';

/**
 * The interface node-thermal-printer drives (lib/interfaces/interface.js):
 * `execute(buffer)` sends the whole slip. Tests pass one that keeps the bytes.
 */
export interface SlipInterface {
  getPrinterName(): string;
  isPrinterConnected(): Promise<boolean>;
  execute(buffer: Buffer): Promise<unknown>;
}

/** `GS k` barcode system 73: Code 128 (Epson ESC/POS, GS k function B). */
const CODE128 = 73;

/** Characters a line holds in font A: 48 on 80 mm paper, 32 on 58 mm. */
export function lineChars(paperWidthMm: 80 | 58): number {
  return paperWidthMm === 58 ? 32 : 48;
}

/**
 * The slip as a node-thermal-printer job on `iface`, ready to `execute()`:
 * shop name (double size), the order number as Code 128 with its text, date,
 * recipient, "qty × title" lines with SKU, notes, tracking number, cut.
 * Every text goes through {@link escposText} (shared/print/text.ts): code
 * page 858, characters it lacks as `?`, and no control byte of the order's
 * text reaches the printer, so a name holding ESC p or GS V neither opens the
 * cash drawer nor cuts the paper (issue 21). The slip's only commands are the
 * ones written here, its one cut last.
 */
export function escposSlip(slip: SlipContent, opts: { paperWidthMm: 80 | 58 }, iface: SlipInterface): ThermalPrinter {
  const content: SlipContent = {
    shopName: escposText(slip.shopName),
    orderNumber: escposText(slip.orderNumber),
    date: escposText(slip.date),
    recipient: slip.recipient.map(escposText),
    lines: slip.lines.map((l) => ({ ...l, sku: escposText(l.sku), title: escposText(l.title) })),
    notes: slip.notes === null ? null : escposText(slip.notes),
    trackingNumber: slip.trackingNumber === null ? null : escposText(slip.trackingNumber),
    deliveryPoint: slip.deliveryPoint === null ? null : escposText(slip.deliveryPoint),
    language: slip.language,
  };
  const words = slipTexts(slip.language);
  const width = lineChars(opts.paperWidthMm);
  const p = new ThermalPrinter({
    type: PrinterTypes.EPSON,
    // The typings say string; the library also takes an interface object (getInterface returns it as is).
    interface: iface as unknown as string,
    width,
    characterSet: CharacterSet.PC858_EURO,
    removeSpecialCharacters: false,
    breakLine: BreakLine.WORD,
  });
  // ESC @ first: a previous job (another program's receipt) may have left bold, sizes or a code page set.
  p.setBuffer(Buffer.from([0x1b, 0x40]));
  p.setCharacterSet(CharacterSet.PC858_EURO);
  p.alignCenter();
  p.setTextDoubleHeight();
  p.bold(true);
  p.println(content.shopName);
  p.bold(false);
  p.setTextNormal();
  p.println(`${words.order(content.orderNumber)} - ${content.date}`);
  // Code 128 set B (GS k 73, "{B" + data) of the order number, text below (HRI 2), as the scan field reads it back.
  // Set B holds printable ASCII only: an order number with anything else is printed as text alone, and so is
  // one with `{`, which GS k 73 reads as a code-set switch (a literal `{` is `{{`).
  if (/^[\x20-\x7a\x7c-\x7e]{1,40}$/.test(slip.orderNumber)) {
    p.printBarcode(content.orderNumber, CODE128, { hriPos: 2, hriFont: 0, width: opts.paperWidthMm === 58 ? 2 : 3, height: 60 });
    p.newLine();
  }
  p.alignLeft();
  p.drawLine();
  p.bold(true);
  p.println(words.shipTo);
  p.bold(false);
  for (const l of content.recipient) p.println(l);
  p.drawLine();
  for (const l of content.lines) {
    p.bold(true);
    p.println(`${l.quantity} x ${l.title}`);
    p.bold(false);
    if (l.sku) p.println(`   ${words.sku} ${l.sku}`);
  }
  p.drawLine();
  const pieces = content.lines.reduce((n, l) => n + l.quantity, 0);
  p.leftRight(words.lines(content.lines.length), words.pieces(pieces));
  if (content.notes) {
    p.newLine();
    p.println(words.notes(content.notes));
  }
  if (content.deliveryPoint) {
    p.newLine();
    p.println(words.deliveryPoint(content.deliveryPoint));
  }
  if (content.trackingNumber) {
    p.newLine();
    p.println(words.trackingShort(content.trackingNumber));
  }
  p.cut();
  return p;
}

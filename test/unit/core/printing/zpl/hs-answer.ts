/** Host status answers as a Zebra printer sends them, for the printer tests. */

const STX = '\x02';
const ETX = '\x03';

/** Flags of a canned `~HS` answer. */
export interface HsFlags {
  paperOut?: boolean;
  paused?: boolean;
  headUp?: boolean;
  ribbonOut?: boolean;
  tt?: boolean;
  hot?: boolean;
  formats?: number;
  mode?: string;
}

/** A `~HS` answer (three STX...ETX CR LF strings) as a ZD421 sends it, with the given flags set. */
export function hsAnswer(o: HsFlags = {}): string {
  const b = (v?: boolean): string => (v ? '1' : '0');
  const s1 = `030,${b(o.paperOut)},${b(o.paused)},1218,${String(o.formats ?? 0).padStart(3, '0')},0,0,0,000,0,0,${b(o.hot)}`;
  const s2 = `000,0,${b(o.headUp)},${b(o.ribbonOut)},${b(o.tt)},${o.mode ?? '2'},0,0,00000000,1,000`;
  const s3 = '1234,0';
  return `${STX}${s1}${ETX}\r\n${STX}${s2}${ETX}\r\n${STX}${s3}${ETX}\r\n`;
}

/** A `~HQES` answer as a ZD421 sends it, with the given error flags (group 1). */
export function hqesAnswer(errors = 0, warnings = 0): string {
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(8, '0');
  return (
    `${STX}\r\n  PRINTER STATUS\r\n   ERRORS:         ${errors ? 1 : 0} 00000000 ${hex(errors)}\r\n` +
    `   WARNINGS:       ${warnings ? 1 : 0} 00000000 ${hex(warnings)}\r\n${ETX}\r\n`
  );
}

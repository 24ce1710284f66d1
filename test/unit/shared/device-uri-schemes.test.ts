/** The device URI schemes, listed once (shared/print/device-uri-schemes.ts), drive the parser, the rules file and the messages. */
import { describe, expect, it } from 'vitest';
import { parseDeviceUri } from '../../../electron/core/printing';
import { RuleThen } from '../../../shared/contract/rules';
import { DEVICE_URI_EXAMPLES, DEVICE_URI_PREFIXES, DEVICE_URI_SCHEMES, DEVICE_URI_SHAPE } from '../../../shared/print/device-uri-schemes';

describe('device URI schemes', () => {
  it('every example of the table parses as its scheme and has the shape a rule takes', () => {
    for (const s of DEVICE_URI_SCHEMES) {
      expect(parseDeviceUri(s.example).scheme).toBe(s.scheme);
      expect(DEVICE_URI_SHAPE.test(s.example)).toBe(true);
      expect(RuleThen.safeParse({ printer: s.example }).success).toBe(true);
    }
  });

  it('the messages list the schemes of the table', () => {
    expect(DEVICE_URI_EXAMPLES).toBe('socket://host:9100, usb://Make/Model, printer:<queue> or file:///folder');
    expect(DEVICE_URI_PREFIXES).toBe('socket://, usb://, printer: or file://');
    expect(() => parseDeviceUri('lpd://host/q')).toThrow(`unsupported scheme "lpd:"; use ${DEVICE_URI_PREFIXES}`);
    expect(() => parseDeviceUri('host:9100x')).toThrow('unsupported scheme "host:"');
    expect(() => parseDeviceUri('10.0.0.5')).toThrow(`no scheme; use ${DEVICE_URI_EXAMPLES}`);
    const r = RuleThen.safeParse({ printer: 'Zebra 203' });
    expect(r.error?.issues[0]?.message).toBe('Label printer must be a device URI (socket://host:9100, usb://…, printer:<queue>, file:///folder)');
  });
});

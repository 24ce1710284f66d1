import { describe, expect, it } from 'vitest';
import { PrinterError, describePrinter, openPrinter, parseDeviceUri } from '../../../../../electron/core/printing';

function invalid(uri: string, fragment: string): void {
  try {
    parseDeviceUri(uri);
    expect.unreachable(`"${uri}" should be refused`);
  } catch (e) {
    expect(e).toBeInstanceOf(PrinterError);
    expect((e as PrinterError).code).toBe('invalid_printer_uri');
    expect((e as PrinterError).message).toContain(fragment);
  }
}

describe('parseDeviceUri', () => {
  it('parses socket URIs with default and explicit ports, IPv4, names and IPv6', () => {
    expect(parseDeviceUri('socket://10.0.0.5')).toEqual({ scheme: 'socket', uri: 'socket://10.0.0.5', host: '10.0.0.5', port: 9100 });
    expect(parseDeviceUri(' socket://zebra-bench-2.local:6101/ ')).toEqual({ scheme: 'socket', uri: 'socket://zebra-bench-2.local:6101/', host: 'zebra-bench-2.local', port: 6101 });
    expect(parseDeviceUri('SOCKET://[::1]:9100')).toMatchObject({ scheme: 'socket', host: '::1', port: 9100 });
  });

  it('parses file URIs to absolute folders', () => {
    expect(parseDeviceUri('file:///var/labels/')).toEqual({ scheme: 'file', uri: 'file:///var/labels/', dir: '/var/labels' });
    expect(parseDeviceUri('file://localhost/tmp/etichette%20oggi')).toMatchObject({ dir: '/tmp/etichette oggi' });
  });

  it('parses usb URIs (hex vendor:product, optional serial)', () => {
    expect(parseDeviceUri('usb://0a5f:0181')).toEqual({ scheme: 'usb', uri: 'usb://0a5f:0181', vendorId: 0x0a5f, productId: 0x0181 });
    expect(parseDeviceUri('usb://0A5F:00D1?serial=D4J123456')).toMatchObject({ vendorId: 0x0a5f, productId: 0xd1, serial: 'D4J123456' });
  });

  it('parses usb URIs as CUPS writes them (make/model, serial, interface) and print queues', () => {
    expect(parseDeviceUri('usb://Zebra%20Technologies/ZTC%20ZD421-203dpi%20ZPL?serial=D2J193601234&interface=0')).toEqual({
      scheme: 'usb',
      uri: 'usb://Zebra%20Technologies/ZTC%20ZD421-203dpi%20ZPL?serial=D2J193601234&interface=0',
      make: 'Zebra Technologies',
      model: 'ZTC ZD421-203dpi ZPL',
      serial: 'D2J193601234',
      interface: 0,
    });
    expect(parseDeviceUri('usb://Zebra/ZD421')).toMatchObject({ make: 'Zebra', model: 'ZD421' });
    expect(parseDeviceUri('printer:Zebra_ZD421')).toEqual({ scheme: 'printer', uri: 'printer:Zebra_ZD421', queue: 'Zebra_ZD421' });
    expect(parseDeviceUri('printer:ZDesigner%20ZD421-203dpi%20ZPL')).toMatchObject({ queue: 'ZDesigner ZD421-203dpi ZPL' });
    expect(describePrinter(parseDeviceUri('usb://Zebra/ZD421?serial=X1'))).toBe('USB printer Zebra ZD421 (X1)');
    expect(describePrinter(parseDeviceUri('printer:Zebra_ZD421'))).toBe('Print queue Zebra_ZD421');
  });

  it('refuses bad URIs naming the problem', () => {
    invalid('', 'empty');
    invalid('10.0.0.5:9100', 'no scheme');
    invalid('ipp://printer/ipp', 'unsupported scheme "ipp:"');
    invalid('socket://', 'host is missing');
    invalid('socket://10.0.0.5:99999', 'port "99999"');
    invalid('socket://10.0.0.5:abc', 'port "abc"');
    invalid('socket://10.0.0.5:9100/queue', 'no path');
    invalid('socket://10.0.0.5:9100?waiteof=false', 'no query');
    invalid('socket://bad_host!:9100', 'not a valid host name');
    invalid('file:labels', 'three slashes');
    invalid('file://server/share', 'host "server"');
    invalid('usb://zebra', 'model is missing');
    invalid('usb://0a5f:01/x', 'vendorId');
    invalid('usb://0a5f:0181/ZD421', 'not both');
    invalid('usb://Zebra/ZD421?interface=x', 'interface=');
    invalid('printer:', 'queue name is missing');
    invalid('file:///proc/self/fd', 'system folder');
    invalid('file:///sys/class', 'system folder');
    // Issue 21 item 4: the same folders spelt otherwise (empty authority, localhost, `..`, encoded dots).
    invalid('file:////proc/x', 'system folder');
    invalid('file://localhost//proc/x', 'system folder');
    invalid('file:///tmp/../proc/x', 'system folder');
    invalid('file:////sys/x', 'system folder');
    invalid('file:///tmp/%2e%2e/dev/x', 'system folder');
    invalid('file:///dev', 'system folder');
    invalid('usb://0a5f:0181?sn=1', 'unknown option "sn"');
  });

  it('describes printers for the screen', () => {
    expect(describePrinter(parseDeviceUri('socket://10.0.0.5'))).toBe('Network printer 10.0.0.5:9100');
    expect(describePrinter(parseDeviceUri('socket://[::1]:9101'))).toBe('Network printer [::1]:9101');
    expect(describePrinter(parseDeviceUri('file:///tmp/labels'))).toBe('Folder /tmp/labels');
    expect(describePrinter(parseDeviceUri('usb://0a5f:0181?serial=X1'))).toBe('USB printer 0a5f:0181 (X1)');
  });
});

describe('openPrinter', () => {
  it('refuses USB with printer_unsupported naming the cause when no usb library is available', () => {
    expect(() => openPrinter('usb://0a5f:0181', { usbLoadError: 'libusb missing' })).toThrow(
      expect.objectContaining({ code: 'printer_unsupported', message: expect.stringContaining('libusb missing') }),
    );
  });

  it('refuses invalid URIs and options', () => {
    expect(() => openPrinter('lpd://x')).toThrow(expect.objectContaining({ code: 'invalid_printer_uri' }));
    expect(() => openPrinter('socket://127.0.0.1', { timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => openPrinter('file:///tmp/x', { dpi: 600 as 203 })).toThrow(/dpi/);
  });

  it('opens socket and file printers without connecting', async () => {
    const s = openPrinter('socket://127.0.0.1:9');
    expect(s.uri).toBe('socket://127.0.0.1:9');
    await s.close();
    const f = openPrinter('file:///tmp/never-created-by-open');
    expect(f.uri).toBe('file:///tmp/never-created-by-open');
    await f.close();
  });
});

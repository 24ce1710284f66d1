/**
 * Web permissions of the station window: none (issue 15 item 7, issue 7 item 12).
 * The page needs no camera, microphone, notifications, clipboard-read,
 * geolocation, HID, serial or USB: scanners are keyboards, and printers,
 * scales and serial devices are driven by the main process's own drivers,
 * never granted to the page. Requests and checks are refused, device
 * choosers are cancelled. No electron import, so it is tested with a fake session.
 */

/** The part of Electron's `Session` this module configures. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void) | null): void;
  setPermissionCheckHandler(handler: ((webContents: unknown, permission: string, requestingOrigin: string, details: unknown) => boolean) | null): void;
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void;
  on(event: 'select-usb-device' | 'select-hid-device' | 'select-serial-port', listener: (event: { preventDefault(): void }, details: unknown, callback: (id?: string) => void) => void): unknown;
}

/** Denies every permission request, check and device grant on `session`, and cancels device pickers. */
export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  // USB/HID/serial devices: only through main's drivers (electron/core/printing), never WebUSB in the page.
  session.setDevicePermissionHandler(() => false);
  for (const picker of ['select-usb-device', 'select-hid-device', 'select-serial-port'] as const) {
    session.on(picker, (event, _details, callback) => {
      event.preventDefault();
      callback(); // no device chosen
    });
  }
}

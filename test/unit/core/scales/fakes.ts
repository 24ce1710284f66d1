/**
 * Fake node-hid and serialport with the libraries' own interfaces
 * (HidLibrary / SerialLibrary, checked against the real packages in
 * electron/core/scales/load.ts), scripted by the tests.
 */
import { EventEmitter } from 'node:events';
import type { HidDeviceInfo, HidLibrary } from '../../../../electron/core/scales/hid';
import type { SerialLibrary, SerialOpenOptions } from '../../../../electron/core/scales/serial';

/** A fake `node-hid`: `plug`/`unplug` devices, `report` sends input reports to the open handle. */
export function fakeHid() {
  let list: HidDeviceInfo[] = [];
  const open: FakeHidHandle[] = [];
  class FakeHidHandle extends EventEmitter {
    closed = false;
    constructor(readonly path: string) {
      super();
      if (!list.some((d) => d.path === path)) throw new Error(`cannot open device with path ${path}`);
      open.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  const lib: HidLibrary = { devices: () => list.map((d) => ({ ...d })), HID: FakeHidHandle };
  const current = () => open.filter((h) => !h.closed).at(-1);
  return {
    lib,
    opened: open,
    plug(d: HidDeviceInfo) {
      list = [...list, d];
    },
    unplug(path: string) {
      list = list.filter((d) => d.path !== path);
      const h = open.find((x) => x.path === path && !x.closed);
      h?.emit('error', new Error('could not read from HID device'));
    },
    report(bytes: number[]) {
      const h = current();
      if (!h) throw new Error('no open HID scale');
      h.emit('data', Buffer.from(bytes));
    },
  };
}

/** A fake `serialport`: `answer` scripts replies to what the station writes; `emitLine` pushes unsolicited output. */
export function fakeSerial(ports: string[]) {
  const opened: FakeSerialPort[] = [];
  let answer: (written: string) => string | null = () => null;
  class FakeSerialPort extends EventEmitter {
    isOpen = false;
    written: string[] = [];
    constructor(readonly options: SerialOpenOptions) {
      super();
      opened.push(this);
      setImmediate(() => {
        if (!ports.includes(options.path)) {
          this.emit('error', new Error(`Error: No such file or directory, cannot open ${options.path}`));
          return;
        }
        this.isOpen = true;
        this.emit('open');
      });
    }
    write(data: string | Buffer) {
      const s = data.toString();
      this.written.push(s);
      const reply = answer(s);
      if (reply !== null) setImmediate(() => this.isOpen && this.emit('data', Buffer.from(reply, 'latin1')));
      return true;
    }
    close(cb?: (e?: Error | null) => void) {
      this.isOpen = false;
      setImmediate(() => {
        this.emit('close');
        cb?.(null);
      });
    }
    static list() {
      return Promise.resolve(ports.map((path) => ({ path })));
    }
  }
  const lib: SerialLibrary = { SerialPort: FakeSerialPort };
  return {
    lib,
    opened,
    setAnswer(fn: (written: string) => string | null) {
      answer = fn;
    },
    unplug(path: string) {
      ports = ports.filter((p) => p !== path);
      const p = opened.find((x) => x.options.path === path && x.isOpen);
      if (p) {
        p.isOpen = false;
        p.emit('close');
      }
    },
    plug(path: string) {
      ports = [...ports, path];
    },
    emitLine(path: string, text: string) {
      const p = opened.find((x) => x.options.path === path && x.isOpen);
      if (!p) throw new Error(`${path} not open`);
      p.emit('data', Buffer.from(text, 'latin1'));
    },
  };
}

/**
 * The one Host/Origin rule of the station's loopback listeners
 * (shared/domain/local-request.ts; issue 21 item 3).
 */
import { describe, expect, it } from 'vitest';
import { foreignRequestHeader } from '../../../shared/domain/local-request';

describe('foreignRequestHeader', () => {
  it('accepts the loopback names with the listener’s port, in any case, with no Origin or its own', () => {
    for (const host of ['127.0.0.1:4100', 'localhost:4100', '[::1]:4100', 'LocalHost:4100']) {
      expect(foreignRequestHeader({ host }, 4100), host).toBeUndefined();
      expect(foreignRequestHeader({ host, origin: `http://${host}` }, 4100), host).toBeUndefined();
      expect(foreignRequestHeader({ host, origin: 'http://localhost:4100' }, 4100), host).toBeUndefined();
    }
  });

  it('refuses a foreign name (DNS rebinding), another port, no port, a missing Host', () => {
    for (const host of ['evil.example:4100', 'evil.example', '127.0.0.1:4101', '127.0.0.1', 'localhost', '127.0.0.1.evil.example:4100', '127.0.0.2:4100', '0.0.0.0:4100', '']) {
      expect(foreignRequestHeader({ host }, 4100), host).toBe('host');
    }
    expect(foreignRequestHeader({}, 4100)).toBe('host');
  });

  it('refuses a foreign Origin even with its own Host: another site, null, https, another port', () => {
    for (const origin of ['http://evil.example', 'null', 'https://127.0.0.1:4100', 'http://127.0.0.1:4101', 'http://localhost:4100.evil.example', '']) {
      expect(foreignRequestHeader({ host: '127.0.0.1:4100', origin }, 4100), origin).toBe('origin');
    }
  });

  it('not listening (inject): the bare names and port 80 only', () => {
    expect(foreignRequestHeader({ host: 'localhost:80' }, undefined)).toBeUndefined();
    expect(foreignRequestHeader({ host: 'localhost' }, undefined)).toBeUndefined();
    expect(foreignRequestHeader({ host: 'localhost:4100' }, undefined)).toBe('host');
    expect(foreignRequestHeader({ host: 'evil.example' }, undefined)).toBe('host');
  });

  it('a listener beyond loopback also answers to the names it is given, on its port only', () => {
    expect(foreignRequestHeader({ host: '192.168.1.20:4100', origin: 'http://192.168.1.20:4100' }, 4100, ['192.168.1.20'])).toBeUndefined();
    expect(foreignRequestHeader({ host: '127.0.0.1:4100' }, 4100, ['192.168.1.20'])).toBeUndefined();
    expect(foreignRequestHeader({ host: '192.168.1.20:4101' }, 4100, ['192.168.1.20'])).toBe('host');
    expect(foreignRequestHeader({ host: '192.168.1.20:4100' }, 4100)).toBe('host');
    expect(foreignRequestHeader({ host: '192.168.1.20:4100', origin: 'http://evil.example' }, 4100, ['192.168.1.20'])).toBe('origin');
  });
});

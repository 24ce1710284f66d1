/** Host command line: unknown options stop the start with a ConfigError naming them. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../electron/core/config';
import { runHost, unknownHostArgs } from '../../../electron/host/cli';

describe('host command line', () => {
  it('keeps --port and its value, reports anything else', () => {
    expect(unknownHostArgs(['--port', '0'])).toEqual([]);
    expect(unknownHostArgs(['--port=8080'])).toEqual([]);
    expect(unknownHostArgs(['--port', '0', '--printer-uri', 'socket://x:9100'])).toEqual(['--printer-uri', 'socket://x:9100']);
  });

  it('refuses a mistyped option before starting anything, naming it', async () => {
    const start = runHost(['--printer-uri', 'socket://10.0.0.5:9100'], {}, () => undefined);
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toMatchObject({ option: '--printer-uri', message: expect.stringContaining('--printer') as unknown });
  });
});

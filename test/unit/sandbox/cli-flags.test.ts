import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../electron/sandbox/cli-args';

describe('sandbox CLI flags of persistence and rate limits', () => {
  it('reads --state-file (both spellings) and --no-rate-limits; rate limits stay on by default', () => {
    expect(parseArgs(['--state-file', '/tmp/s.json'])).toEqual({ port: 0, host: '127.0.0.1', log: false, stateFile: '/tmp/s.json' });
    expect(parseArgs(['--state-file=/data/training.json', '--no-rate-limits'])).toEqual({
      port: 0,
      host: '127.0.0.1',
      log: false,
      stateFile: '/data/training.json',
      rateLimits: false,
    });
    expect(parseArgs([]).rateLimits).toBeUndefined();
  });

  it('names --state-file when its value is missing', () => {
    expect(() => parseArgs(['--state-file'])).toThrow(/--state-file needs a value/);
    expect(() => parseArgs(['--rate-limits'])).toThrow(/--no-rate-limits/);
  });
});

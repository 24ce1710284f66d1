/**
 * Playwright e2e (`npm run test:e2e`, after `npm run build:renderer`): the
 * real renderer in Debian's Chromium, through the headless host, against the
 * station core on the embedded sandbox and a TCP listener standing in for the
 * label printer. One worker: the flow is one bench's day, in order.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..', '..');

export default defineConfig({
  testDir: import.meta.dirname,
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  outputDir: path.join(root, 'test-results', 'playwright'),
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 1000 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});

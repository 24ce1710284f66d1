import { defineConfig } from 'vitest/config';

// Two projects, run separately by `npm test`: pure/unit tests and
// integration tests that talk to the sandbox over HTTP on port 0.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Every sandbox answer is checked against the served OpenAPI document (test/integration/openapi).
          globalSetup: ['test/integration/openapi/global-setup.ts'],
          setupFiles: ['test/integration/openapi/setup.ts'],
        },
      },
    ],
  },
});

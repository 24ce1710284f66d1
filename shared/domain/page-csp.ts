/**
 * Content-Security-Policy of the station's pages, shared by the headless host
 * (HTTP header), Electron main (app-scheme response header) and the
 * supervisor's page of `npm run warehouse`; the same policy is in
 * renderer/index.html as a meta tag. Nothing but the page's own
 * origin: no inline script, no frames, no plugins, no form posts.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

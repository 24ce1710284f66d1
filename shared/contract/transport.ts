/**
 * What the headless host (electron/host/server.ts) and the renderer's HTTP
 * transport (renderer/src/transport/http.ts) agree on besides the commands.
 */

/** Header carrying the per-launch token on `POST /rpc/<command>` (and, when it can, `GET /events`). */
export const TOKEN_HEADER = 'x-station-token';

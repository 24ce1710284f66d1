import fs from 'node:fs';
import { adaptZpl } from './electron/core/printing';
import { renderZplPreview, stopZplPreviewWorker } from './electron/core/printing/preview';
const files = process.argv.slice(2);
for (const f of files) {
  const zpl = fs.readFileSync('test/fixtures/labels/real/' + f, 'latin1');
  for (const dpi of [300, 600] as const) {
    const sent = adaptZpl(zpl, { dpi, sourceDpi: 203 });
    const t0 = Date.now();
    try {
      const r = await renderZplPreview(sent, { dpi, maxLabels: 4, labelMm: { widthMm: 101.6, heightMm: 152.4 } });
      console.log(f, dpi, 'ok', r.labelCount, Date.now() - t0, 'ms', process.memoryUsage().rss >> 20, 'MB');
    } catch (e) { console.log(f, dpi, 'ERR', String(e).slice(0, 200)); }
  }
}
await stopZplPreviewWorker();

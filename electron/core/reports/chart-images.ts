/**
 * The report's charts as images (issue 26): the same ECharts option the
 * screen draws (shared/reports/charts.ts) rendered on the server side to an
 * SVG string (ECharts SSR, no DOM), rasterised by `@napi-rs/canvas` (Skia) on
 * white, and put in the PDF as an RGB image deflated by node:zlib. Each chart
 * instance is disposed after use (an undisposed one keeps timers and the
 * process alive).
 *
 * Not through PNG and pdf-lib's `embedPng`: that decodes the PNG and deflates
 * its pixels again in JavaScript (UPNG, pako), ≈ 170 ms a chart, most of a
 * day report's time (issue 45: `manifests.closeDay`, which saves the report,
 * took over 1 s).
 */
import { deflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';
import { degrees, drawImage, type PDFDocument, type PDFPage } from 'pdf-lib';
// Only the charts and components the report draws, each registering itself with echarts/core: the barrels
// (echarts/charts, echarts/components) load every chart and component there is, twice the load time of the
// report's first run (≈ 550 against 290 ms) and ≈ 30 MB more; the SVG drawn is the same byte for byte.
import 'echarts/lib/chart/bar.js';
import 'echarts/lib/chart/line.js';
import 'echarts/lib/component/aria.js';
import 'echarts/lib/component/grid.js';
import 'echarts/lib/component/legend.js';
import 'echarts/lib/component/title.js';
import 'echarts/lib/component/tooltip.js';

echarts.use([SVGRenderer]);

/** `option` as an SVG document of `width` × `height` CSS pixels. */
function chartSvg(option: EChartsOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** `svg` drawn on a white `width` × `height` canvas at `scale`, as RGB bytes (3 a pixel, rows top to bottom). */
async function svgToRgb(svg: string, width: number, height: number, scale: number): Promise<{ width: number; height: number; rgb: Uint8Array }> {
  const image = await loadImage(Buffer.from(svg));
  const canvas = createCanvas(Math.round(width * scale), Math.round(height * scale));
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(image, 0, 0, canvas.width, canvas.height);
  // Premultiplied RGBA; every pixel is opaque on the white ground, so its colour is as drawn.
  return { width: canvas.width, height: canvas.height, rgb: rgbOf(canvas.data()) };
}

/** Whether typed arrays are little-endian here (every platform the station ships for): {@link rgbOf} reads R in a word's low byte. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** RGBA bytes without their alpha: RGB, 3 bytes a pixel. */
export function rgbOf(rgba: Uint8Array): Uint8Array {
  const n = rgba.length >> 2;
  const rgb = new Uint8Array(n * 3);
  let p = 0;
  if (LITTLE_ENDIAN && rgba.byteOffset % 4 === 0) {
    // Four pixels (four words 0xAABBGGRR) make three words of RGB: a quarter of the reads and writes of byte by byte.
    const src = new Uint32Array(rgba.buffer, rgba.byteOffset, n);
    const dst = new Uint32Array(rgb.buffer, 0, (n >> 2) * 3);
    for (let d = 0; p + 3 < n; p += 4, d += 3) {
      const a = src[p]!;
      const b = src[p + 1]!;
      const c = src[p + 2]!;
      const e = src[p + 3]!;
      dst[d] = (a & 0xffffff) | (b << 24);
      dst[d + 1] = ((b >>> 8) & 0xffff) | (c << 16);
      dst[d + 2] = ((c >>> 16) & 0xff) | (e << 8);
    }
  }
  for (; p < n; p++) {
    rgb[p * 3] = rgba[p * 4]!;
    rgb[p * 3 + 1] = rgba[p * 4 + 1]!;
    rgb[p * 3 + 2] = rgba[p * 4 + 2]!;
  }
  return rgb;
}

/**
 * Draws the chart `option` on `page` of `doc` in `box` (PDF points, bottom-left origin): rendered at `px`
 * CSS pixels, rasterised at `scale` × that (2: sharp on paper), embedded once as an image XObject
 * (`/DeviceRGB`, 8 bits, `/FlateDecode`).
 */
export async function drawChart(
  doc: PDFDocument,
  page: PDFPage,
  option: EChartsOption,
  px: { width: number; height: number },
  box: { x: number; y: number; width: number; height: number },
  scale = 2,
): Promise<void> {
  const img = await svgToRgb(chartSvg(option, px.width, px.height), px.width, px.height, scale);
  // Level 1: a chart is flat colour, deflated to a few % of its pixels either way, in a fifth of the default level's time.
  const stream = doc.context.stream(deflateSync(img.rgb, { level: 1 }), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: img.width,
    Height: img.height,
    ColorSpace: 'DeviceRGB',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
  });
  const name = page.node.newXObject('Image', doc.context.register(stream));
  page.pushOperators(...drawImage(name, { ...box, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }));
}

/**
 * The report's charts as images (issue 26): the same ECharts option the
 * screen draws (shared/reports/charts.ts) rendered on the server side to an
 * SVG string (ECharts SSR, no DOM), then rasterised to PNG by
 * `@napi-rs/canvas` for the PDF. Each chart instance is disposed after use
 * (an undisposed one keeps timers and the process alive).
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';

echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

/** `option` as an SVG document of `width` × `height` CSS pixels. */
export function chartSvg(option: EChartsOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** `svg` drawn on a white `width` × `height` canvas at `scale` (2: sharp on paper), as PNG bytes. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Buffer> {
  const image = await loadImage(Buffer.from(svg));
  const canvas = createCanvas(Math.round(width * scale), Math.round(height * scale));
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas.toBuffer('image/png');
}

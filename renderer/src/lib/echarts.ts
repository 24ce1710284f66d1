/**
 * Apache ECharts for End of day's charts (issue 26), tree-shaken: only the
 * bar and line charts, the grid, title, legend, tooltip and ARIA components
 * and the SVG renderer are bundled. Chosen over Recharts, visx, Chart.js and
 * uPlot because it draws the same option in the browser and, with no DOM,
 * as an SVG string in the core for the day report (one definition of each
 * chart), and has ARIA descriptions and decal patterns built in.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export { echarts };

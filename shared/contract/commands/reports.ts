/** Commands of End of day's charts and the day report (issue 26; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { DayInput, ReportLanguage, ReportRange, ReportSettings, type DayReportView, type DayStatsView } from '../reports';
import { command, Empty } from './define';

/** Commands of reports. */
export const reportsCommands = {
  /** Figures of End of day for `day` (default today, Europe/Rome) over `range`. */
  'reports.day': command<DayStatsView>()(z.object({ day: DayInput.optional(), range: ReportRange.default('day') }).strict()),
  /** The day report (A4 PDF and CSV) in `language`; `save` also writes both into the report folder. */
  'reports.dayReport': command<DayReportView>()(z.object({ day: DayInput.optional(), language: ReportLanguage, save: z.boolean().default(false) }).strict()),
  /** The report folder and language. */
  'reports.settings.get': command<ReportSettings>()(Empty),
  /** Sets the report folder (checked like a printer folder: absolute, no `..`) and language. */
  'reports.settings.set': command<ReportSettings>()(ReportSettings),
} as const;

/**
 * The day in pictures and the day report (issue 26): what End of day's charts
 * are drawn from (`reports.day`), and the report made from the same figures
 * (`reports.dayReport`: an A4 PDF and a CSV). Days are Europe/Rome days
 * (shared/domain/rome-day.ts); money is in the shipments' currency (EUR).
 */
import { z } from 'zod';
import { isDay } from '../domain/rome-day';

/** How much End of day shows: the day, the week (Monday to Sunday) or the calendar month it is in. */
export const ReportRange = z.enum(['day', 'week', 'month'], { error: 'range must be day, week or month' });
/** One of {@link ReportRange}. */
export type ReportRange = z.infer<typeof ReportRange>;

/** Languages of the report (the bench's). */
export const ReportLanguage = z.enum(['it', 'en'], { error: 'language must be it or en' });
/** One of {@link ReportLanguage}. */
export type ReportLanguage = z.infer<typeof ReportLanguage>;

/** A Europe/Rome day `YYYY-MM-DD`. */
export const DayInput = z.string({ error: 'day must be YYYY-MM-DD' }).refine(isDay, { error: 'day must be a date written YYYY-MM-DD' });

/** Parcels in one Europe/Rome hour: the day's, and the average of the same weekday over the four weeks before. */
interface HourBar {
  hour: number;
  parcels: number;
  usual: number;
}

/** One packer's figures over the range; `packer` null for shipments made with nobody signed in. */
export interface PackerFigures {
  packerId: number | null;
  packer: string | null;
  shipments: number;
  parcels: number;
  /** Median seconds from the order's scan to its label, null when none was timed. */
  medianScanToLabelS: number | null;
  verifyMismatches: number;
  reprints: number;
}

/** Figures of End of day (`reports.day`). */
export interface DayStatsView {
  /** The day asked for and the range shown around it (inclusive). */
  day: string;
  range: ReportRange;
  firstDay: string;
  lastDay: string;
  /** 24 bars, hours 0-23 of `day`. */
  hourly: HourBar[];
  /** Parcels per carrier and contract over the range, most first. */
  byContract: Array<{ carrier: string; contract: string; shipments: number; parcels: number; cost: number }>;
  /** Per packer over the range, most parcels first. */
  byPacker: PackerFigures[];
  /** Shipping cost per day of the range (every day, 0 when none). */
  costPerDay: Array<{ day: string; cost: number }>;
  /** Shipments of the range that need attention (queue), are held at the depot (giacenza) or were voided. */
  exceptions: { needsAttention: number; held: number; voided: number };
  totals: { shipments: number; parcels: number; cost: number; currency: string };
}

/** The day report (`reports.dayReport`): the PDF as base64 and the CSV as text, with their file names. */
export interface DayReportView {
  pdfBase64: string;
  pdfFileName: string;
  csv: string;
  csvFileName: string;
  /** Where they were saved, when a folder is set and `save` was asked; null otherwise. */
  savedTo: string | null;
}

/** Settings of the day report: the folder it is saved to at day close (null: not saved by itself) and its language. */
export const ReportSettings = z
  .object({
    folder: z.string({ error: 'folder must be a path' }).trim().min(1, { error: 'folder must be a path' }).max(1024, { error: 'folder is at most 1024 characters' }).nullable(),
    language: ReportLanguage,
  })
  .strict();
/** The parsed {@link ReportSettings}. */
export type ReportSettings = z.infer<typeof ReportSettings>;

/**
 * What a write made in another tab moves (issue 38): the kinds of write the console announces across
 * tabs (src/adapters/write-signals.ts posts them) and, per kind, the reports whose figures it moves.
 * The report machine refetches on `report.staleFromElsewhere` only when one of its reports is among them
 * (guard `readsMovedFigures`, ./report.setup.ts). Kept apart from the machine so the writers' wiring
 * files (support, monetization) name the kinds without loading the report machine.
 */
import type { ReportName } from '../common/reports';

/** 'payment': a refund; 'subscription': a cancellation, a resume, a plan change, a move to a plan's current price. */
export const WRITE_KINDS = ['payment', 'subscription'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

export function isWriteKind(value: unknown): value is WriteKind {
  return WRITE_KINDS.some((kind) => kind === value);
}

/**
 * The reports each kind of write moves. A refund moves money: the Payments report (Net revenue, the
 * Dashboard's tile), the cohorts' net revenue and the value per subscriber. A subscription write moves
 * the subscriber counts (paying, in trial, the movements, retention) and so the value per subscriber;
 * it takes no payment (the Payments report reads payments only).
 * Real-time and playback reports read sessions only: no write of the console moves them.
 */
export const REPORTS_MOVED_BY: Readonly<Record<WriteKind, readonly ReportName[]>> = {
  payment: ['payment_summary_report', 'cohort_analysis', 'ltv_enhanced'],
  subscription: ['user_base', 'change_in_user_base', 'cohort_analysis', 'ltv_enhanced'],
};

/** Whether a write of `kind` moves a figure of any of these reports. */
export function movesAnyOf(kind: WriteKind, reports: readonly ReportName[]): boolean {
  return reports.some((report) => REPORTS_MOVED_BY[kind].includes(report));
}

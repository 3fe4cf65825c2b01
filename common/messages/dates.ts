/**
 * What a date typed into a filter is told when it is not one (issue 38: no internals in a message): the
 * field as the page labels it and the format expected, never the request's parameter name. Used by the
 * Admin area's staff audit filter (server/domain/staff-admin.ts) and the audit log (server/domain/audit-log.ts).
 */

/** The date filters' labels on the Audit page (src/views/admin/AuditPage.tsx), by query parameter. */
export const DATE_FILTER_LABELS = { from: 'From', to: 'To' } as const;
export type DateFilterParam = keyof typeof DATE_FILTER_LABELS;

export const DATE_INPUT_MESSAGES = {
  /** A day that is not one (2026-02-30, year 0000, free text). */
  notADay: (param: DateFilterParam) =>
    `The "${DATE_FILTER_LABELS[param]}" date is not a day of the calendar: enter it as year-month-day (YYYY-MM-DD), for example 2026-03-01.`,
} as const;

/**
 * Hands a file made in the browser to the person as a download: the one place that does it through
 * the DOM (an object URL on a clicked link). The audit log's and the report tables' CSV exports are
 * machine actions (`downloadCsv`) that the wiring files provide with it.
 */

export const CSV_TYPE = 'text/csv;charset=utf-8';

export function downloadFile(contents: string, filename: string, type: string = CSV_TYPE): void {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

/** The `downloadCsv` action the machines declare (`{ csv, filename }`), as the wiring files provide it. */
export function downloadCsv(_: unknown, params: { csv: string; filename: string }): void {
  downloadFile(params.csv, params.filename);
}
